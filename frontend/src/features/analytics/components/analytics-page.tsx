import "@mantine/charts/styles.css";
import { BarChart } from "@mantine/charts";
import { Badge, Container, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import type { AnalyticsRank } from "@skyward/contracts/sales";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { LoadFailed, shownInline } from "../../../components/load-failed.tsx";
import { DateField } from "../../../components/travel/date-field.tsx";
import { formatDay } from "../../../lib/date-format.ts";
import { type Language, useSiteLanguage } from "../../../lib/i18n.ts";
import { formatMoney, formatNumber, minorToDecimal } from "../../../lib/money.ts";
import { analyticsQueryOptions } from "../api/analytics.ts";

export interface AnalyticsPageProps {
  dateFrom: string;
  dateTo: string;
  onChange(next: { dateFrom: string; dateTo: string }): void;
}

type Figure =
  | "sales"
  | "revenue"
  | "tickets_issued"
  | "tickets_voided"
  | "tickets_refunded"
  | "tickets_exchanged"
  | "average_ticket";
const FIGURES = [
  { key: "sales", label: "analytics.sales", money: true },
  { key: "revenue", label: "analytics.revenue", money: true },
  { key: "average_ticket", label: "analytics.average", money: true },
  { key: "tickets_issued", label: "analytics.issued", money: false },
  { key: "tickets_voided", label: "analytics.voided", money: false },
  { key: "tickets_refunded", label: "analytics.refunded", money: false },
  { key: "tickets_exchanged", label: "analytics.exchanged", money: false },
] as const satisfies readonly { key: Figure; label: string; money: boolean }[];

/** Percent change from the previous period, or null when there is nothing to compare with. */
function change(now: number, before: number | undefined): number | null {
  if (!before) return null;
  return Math.round(((now - before) / Math.abs(before)) * 100);
}

/** Sales and revenue by day (charts), the period's figures against the previous one, and the top lists. */
export function AnalyticsPage({ dateFrom, dateTo, onChange }: AnalyticsPageProps) {
  const { t } = useTranslation("sales");
  const language = useSiteLanguage();
  const analytics = useQuery({ ...analyticsQueryOptions(dateFrom, dateTo), ...shownInline });
  const data = analytics.data;
  const currencies = data
    ? [...new Set([...data.current, ...data.by_day].map((f) => f.currency))].sort()
    : [];

  return (
    <Container fluid px="lg" py="md" maw={1480}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <Stack gap={2}>
            <Title order={1} fz={22}>
              {t("analytics.title")}
            </Title>
            <Text c="dimmed" fz="sm">
              {t("analytics.lead")}
            </Text>
          </Stack>
          <Group gap="xs" role="group" aria-label={t("analytics.period")}>
            <DateField
              size="xs"
              w={150}
              aria-label={t("filters.date_from")}
              placeholder={t("filters.date_from")}
              value={dateFrom}
              onChange={(value) =>
                value && onChange({ dateFrom: value, dateTo: value > dateTo ? value : dateTo })
              }
            />
            <DateField
              size="xs"
              w={150}
              aria-label={t("filters.date_to")}
              placeholder={t("filters.date_to")}
              value={dateTo}
              onChange={(value) =>
                value && onChange({ dateFrom: value < dateFrom ? value : dateFrom, dateTo: value })
              }
            />
            {analytics.isFetching ? <Loader size={14} aria-label={t("loading")} /> : null}
          </Group>
        </Group>
        <LoadFailed query={analytics} />
        {data ? (
          <Text fz="sm" c="dimmed">
            {t("analytics.previous", {
              from: formatDay(data.previous_period.date_from, language, "short"),
              to: formatDay(data.previous_period.date_to, language, "short"),
            })}
          </Text>
        ) : null}

        {data && currencies.length === 0 ? (
          <Paper withBorder radius="md" p="xl">
            <Text c="dimmed" ta="center">
              {t("analytics.no_data")}
            </Text>
          </Paper>
        ) : null}

        {data
          ? currencies.map((currency) => {
              const now = data.current.find((f) => f.currency === currency);
              const before = data.previous.find((f) => f.currency === currency);
              const days = data.by_day
                .filter((d) => d.currency === currency)
                .map((d) => ({
                  day: formatDay(d.day, language, "short"),
                  sales: Number(minorToDecimal(d.sales, currency)),
                  revenue: Number(minorToDecimal(d.revenue, currency)),
                }));
              return (
                <Stack key={currency} gap="sm">
                  <Title order={2} fz={16}>
                    {currency}
                  </Title>
                  <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="sm">
                    {FIGURES.map(({ key, label, money }) => (
                      <FigureCard
                        key={key}
                        label={t(label)}
                        value={now?.[key] ?? 0}
                        previous={before?.[key]}
                        currency={money ? currency : null}
                        language={language}
                      />
                    ))}
                  </SimpleGrid>
                  <Paper withBorder radius="md" p="md">
                    <Text fw={600} mb="sm">
                      {t("analytics.by_day")}
                    </Text>
                    <BarChart
                      h={260}
                      data={days}
                      dataKey="day"
                      series={[
                        { name: "sales", label: t("analytics.chart_sales", { currency }), color: "blue.6" },
                        {
                          name: "revenue",
                          label: t("analytics.chart_revenue", { currency }),
                          color: "teal.6",
                        },
                      ]}
                      withLegend
                      tickLine="y"
                      valueFormatter={(value) => formatNumber(value, language)}
                    />
                  </Paper>
                </Stack>
              );
            })
          : null}

        {data && currencies.length > 0 ? (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <RankTable title={t("analytics.top_routes")} rows={data.top_routes} language={language} />
            <RankTable title={t("analytics.top_carriers")} rows={data.top_carriers} language={language} />
            <RankTable title={t("analytics.top_agents")} rows={data.top_agents} language={language} />
            <RankTable title={t("analytics.top_companies")} rows={data.top_companies} language={language} />
          </SimpleGrid>
        ) : null}
      </Stack>
    </Container>
  );
}

function FigureCard(props: {
  label: string;
  value: number;
  previous: number | undefined;
  currency: string | null;
  language: Language;
}) {
  const { t } = useTranslation("sales");
  const delta = change(props.value, props.previous);
  const show = (n: number) =>
    props.currency ? formatMoney({ amount: n, currency: props.currency }, props.language) : String(n);
  return (
    <Paper withBorder radius="md" p="sm">
      <Text fz="xs" c="dimmed">
        {props.label}
      </Text>
      <Text fz="lg" fw={700}>
        {show(props.value)}
      </Text>
      {delta === null ? (
        props.value ? (
          <Badge size="xs" variant="light" color="blue">
            {t("analytics.new")}
          </Badge>
        ) : null
      ) : (
        <Text fz="xs" c={delta >= 0 ? "var(--skyward-success-text)" : "var(--mantine-color-error)"}>
          {t("analytics.change", { change: `${delta > 0 ? "+" : ""}${delta} %` })}
        </Text>
      )}
    </Paper>
  );
}

function RankTable({ title, rows, language }: { title: string; rows: AnalyticsRank[]; language: Language }) {
  const { t } = useTranslation("sales");
  return (
    <Paper withBorder radius="md" p="md">
      <Text fw={600} mb="xs">
        {title}
      </Text>
      <Table fz="sm" aria-label={title}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("analytics.name")}</Table.Th>
            <Table.Th ta="right">{t("analytics.tickets")}</Table.Th>
            <Table.Th ta="right">{t("analytics.sales")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={`${row.key}-${row.currency}`}>
              <Table.Td>{row.name}</Table.Td>
              <Table.Td ta="right">{row.tickets}</Table.Td>
              <Table.Td ta="right">
                {formatMoney({ amount: row.sales, currency: row.currency }, language)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
