import { Loader, Switch, Table, Text } from "@mantine/core";
import type { NotificationSetting } from "@skyward/contracts/agent-notifications";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { notificationSettingsOptions, useUpdateNotificationSetting } from "../api/notification-settings.ts";
import { SectionCard } from "./section-card.tsx";

/** Which notifications the user gets, per kind: in the app (the bell) and by e-mail. */
export function NotificationSettingsCard() {
  const { t } = useTranslation("agent-notifications");
  const { data, isError } = useQuery(notificationSettingsOptions());
  const update = useUpdateNotificationSetting();
  const change = (setting: NotificationSetting) => update.mutate(setting);
  return (
    <SectionCard title={t("settings.title")} description={t("settings.description")}>
      {data ? (
        <Table verticalSpacing={6} withRowBorders={false}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("settings.kind")}</Table.Th>
              <Table.Th>{t("settings.in_app")}</Table.Th>
              <Table.Th>{t("settings.mail")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.map((s) => (
              <Table.Tr key={s.kind}>
                <Table.Td>{t(`kinds.${s.kind}`)}</Table.Td>
                <Table.Td>
                  <Switch
                    aria-label={t("settings.in_app_of", { kind: t(`kinds.${s.kind}`) })}
                    checked={s.in_app}
                    disabled={update.isPending}
                    onChange={(e) => change({ ...s, in_app: e.currentTarget.checked })}
                  />
                </Table.Td>
                <Table.Td>
                  <Switch
                    aria-label={t("settings.mail_of", { kind: t(`kinds.${s.kind}`) })}
                    checked={s.mail}
                    disabled={update.isPending}
                    onChange={(e) => change({ ...s, mail: e.currentTarget.checked })}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : isError ? (
        <Text fz="sm" c="var(--mantine-color-error)">
          {t("settings.failed")}
        </Text>
      ) : (
        <Loader size="sm" />
      )}
    </SectionCard>
  );
}
