import { Badge, Group, Stack, Text, Title } from "@mantine/core";
import type { BookingAction } from "@skyward/contracts/bookings";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { useTick } from "./use-tick.ts";

/**
 * "What can I do now", exactly as the server decided it (contracts/src/booking-actions.ts): each action allowed
 * with its deadline and money, or refused with its reason. Nothing here decides anything.
 */
export function BookingNow({ actions }: { actions: BookingAction[] }) {
  const { t, i18n } = useTranslation("after-sales");
  const formats = useFormats();
  const now = useTick();
  if (actions.length === 0) return null;
  const money = (a: BookingAction) => {
    if (!a.money) return null;
    const amount = formats.money(a.money);
    if (a.action === "issue") return t("now.charges", { amount });
    if (a.action === "exchange") return t("now.fee_estimate", { amount });
    if (a.action === "void" || a.action === "refund")
      return a.estimate ? t("now.gives_back_estimate", { amount }) : t("now.gives_back", { amount });
    return amount;
  };
  const reason = (a: BookingAction) => {
    const key = `after-sales:now.reasons.${a.reason_code}`;
    return a.reason_code && i18n.exists(key) ? t(key as never) : a.reason;
  };
  const label = (name: string) => {
    const key = `after-sales:now.actions.${name}`;
    return i18n.exists(key) ? t(key as never) : name;
  };
  return (
    <Stack gap={6} component="section" aria-label={t("now.title")} data-testid="booking-now">
      <Title order={3} fz={14} fw={650}>
        {t("now.title")}
      </Title>
      {actions.map((a) => (
        <Group
          key={a.action}
          gap="xs"
          wrap="nowrap"
          align="flex-start"
          data-action={a.action}
          data-allowed={a.allowed}
        >
          <Badge
            variant="light"
            color={a.allowed ? "teal" : "gray"}
            // At least the English labels' width, growing (and wrapping) for longer words: never cut
            // ("АНУЛЮВ…", issue 27 item 3).
            miw={92}
            maw={170}
            h="auto"
            py={2}
            style={{ flex: "none" }}
            styles={{ label: { whiteSpace: "normal", overflow: "visible", textAlign: "center" } }}
            aria-label={`${label(a.action)}: ${a.allowed ? t("now.allowed") : t("now.not_allowed")}`}
          >
            {label(a.action)}
          </Badge>
          <Text fz="sm" c={a.allowed ? undefined : "dimmed"}>
            {a.allowed
              ? [
                  money(a),
                  a.deadline && Date.parse(a.deadline) > now
                    ? t("now.until", {
                        time: formats.instant(a.deadline),
                        left: formats.fromNow(a.deadline),
                      })
                    : null,
                ]
                  .filter(Boolean)
                  .join(" · ") || t("now.allowed")
              : reason(a)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
