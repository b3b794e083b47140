import { Badge, Group, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Session } from "../../../lib/session.ts";
import { SectionCard } from "./section-card.tsx";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" c="dimmed" fw={500} tt="uppercase" style={{ letterSpacing: "0.04em" }}>
        {label}
      </Text>
      <Text fz="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** Where the account works and whether it may sell: read-only, set by supervisors and administrators. */
export function OrganisationCard({ session }: { session: Session }) {
  const { t } = useTranslation("account");
  const { account, settings } = session;
  const active = settings.active && settings.active_by_supervisor;
  const none = (
    <Text span c="dimmed" fz="sm">
      {t("organisation.none")}
    </Text>
  );
  return (
    <SectionCard title={t("organisation.title")}>
      <Stack gap="md">
        <Row label={t("organisation.role")}>
          <Group gap={6}>
            {t(`user_types.${account.user_type}`)}
            {account.demo_user ? (
              <Badge size="sm" variant="light" color="grape" radius="sm">
                {t("organisation.demo")}
              </Badge>
            ) : null}
          </Group>
        </Row>
        <Row label={t("organisation.agency")}>
          {account.agencies.length > 0 ? account.agencies.map((agency) => agency.name).join(", ") : none}
        </Row>
        <Row label={t("organisation.company")}>{account.company ? account.company.name : none}</Row>
        {account.companies.length > 1 ? (
          <Row label={t("organisation.companies")}>
            {account.companies.map((company) => company.name).join(", ")}
          </Row>
        ) : null}
        <Row label={t("organisation.status")}>
          <Badge variant="dot" color={active ? "teal" : "red"} radius="sm">
            {active
              ? t("organisation.active")
              : settings.active
                ? t("organisation.paused_by_supervisor")
                : t("organisation.inactive")}
          </Badge>
        </Row>
      </Stack>
    </SectionCard>
  );
}
