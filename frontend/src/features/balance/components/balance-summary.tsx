import { Group, Loader, Paper, Stack, Text, ThemeIcon, Tooltip } from "@mantine/core";
import { IconWallet } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { LoadFailed, shownInline } from "../../../components/load-failed.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { balancesQueryOptions } from "../../../lib/balances.ts";

/** The company balance tickets are paid from; a user of several companies sees each. */
export function BalanceSummary() {
  const { t } = useTranslation("balance");
  const formats = useFormats();
  const balances = useQuery({ ...balancesQueryOptions(), ...shownInline });
  const rows = balances.data ?? [];
  return (
    <Paper withBorder radius="md" px="sm" py={6} component="section" aria-label={t("label")}>
      <Group gap="sm" wrap="nowrap">
        <ThemeIcon variant="light" color="teal" radius="md" size={32}>
          <IconWallet size={17} />
        </ThemeIcon>
        {balances.isPending ? (
          <Loader size={14} />
        ) : balances.isError ? (
          <LoadFailed query={balances} title={t("unavailable")} />
        ) : rows.length === 0 ? (
          <Text fz="sm" c="dimmed">
            {t("none")}
          </Text>
        ) : (
          <Group gap="lg" wrap="wrap">
            {rows.map((row) => (
              <Stack key={row.company_id} gap={0}>
                <Tooltip label={row.company_name} withArrow>
                  <Text
                    fz={11}
                    c="dimmed"
                    tt="uppercase"
                    fw={600}
                    maw={200}
                    truncate="end"
                    style={{ letterSpacing: "0.04em" }}
                  >
                    {rows.length > 1 ? row.company_name : t("label")}
                  </Text>
                </Tooltip>
                <Text
                  fz="md"
                  fw={700}
                  c={row.balance_amount.amount <= 0 ? "var(--mantine-color-error)" : undefined}
                  style={{ fontVariantNumeric: "tabular-nums" }}
                  data-testid="balance-amount"
                  data-amount={row.balance_amount.amount}
                >
                  {formats.money(row.balance_amount)}
                </Text>
              </Stack>
            ))}
          </Group>
        )}
      </Group>
    </Paper>
  );
}
