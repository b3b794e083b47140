import { Alert, Anchor, List, Text } from "@mantine/core";
import { IconAlarm } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { timeLimitNoticesQueryOptions } from "../api/time-limit-notices.ts";
import { useTick } from "./use-tick.ts";

/** The ticketing-deadline watchdog's notices: held bookings near their time limit, and those it cancelled. */
export function TimeLimitNotices() {
  const { t } = useTranslation("after-sales");
  const formats = useFormats();
  const navigate = useNavigate();
  useTick(60_000);
  const { data } = useQuery({ ...timeLimitNoticesQueryOptions(), meta: { notifyErrors: false } });
  if (!data || data.length === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlarm size={16} />}
      title={t("notices.title")}
      data-testid="time-limit-notices"
    >
      <List size="sm" spacing={2}>
        {data.map((notice) => {
          const facts = {
            locator: notice.locator,
            route: notice.route ?? "",
            time: formats.instant(notice.auto_cancelled_at ?? notice.time_limit),
            left: formats.fromNow(notice.auto_cancel_at ?? notice.time_limit),
            cancel: notice.auto_cancel_at ? formats.instant(notice.auto_cancel_at) : "",
          };
          return (
            <List.Item key={notice.locator}>
              <Text span fz="sm">
                {notice.kind === "auto_cancelled"
                  ? t("notices.auto_cancelled", facts)
                  : notice.auto_cancel_at
                    ? t("notices.near_auto", facts)
                    : t("notices.near", facts)}
              </Text>{" "}
              {notice.kind === "time_limit_near" ? (
                <Anchor
                  href={`/bookings?locator=${notice.locator}`}
                  fz="sm"
                  onClick={(event) => {
                    if (event.metaKey || event.ctrlKey || event.shiftKey) return;
                    event.preventDefault();
                    void navigate({ to: "/bookings", search: { locator: notice.locator } });
                  }}
                >
                  {t("notices.open", { locator: notice.locator })}
                </Anchor>
              ) : null}
            </List.Item>
          );
        })}
      </List>
    </Alert>
  );
}
