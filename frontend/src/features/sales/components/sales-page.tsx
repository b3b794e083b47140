import {
  ActionIcon,
  Badge,
  Button,
  Container,
  Group,
  Loader,
  NumberInput,
  Pagination,
  Paper,
  Popover,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDebouncedCallback, useViewportSize } from "@mantine/hooks";
import { paidByText } from "@skyward/contracts/cards";
import { MAX_SALES_RANGE_DAYS, type SaleLine, salesPageSize } from "@skyward/contracts/sales";
import {
  type ReceiptPricesValues,
  receiptPricesForm,
  SalesFiltersForm,
  type SalesFiltersValues,
} from "@skyward/contracts/sales-forms";
import { IconFileSpreadsheet, IconFileTypePdf, IconSearch } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadFailed, shownInline } from "../../../components/load-failed.tsx";
import { DateField } from "../../../components/travel/date-field.tsx";
import { formatInstant } from "../../../lib/date-format.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { translatedValidation, useFormErrorWords } from "../../../lib/form-validation.ts";
import { useSiteLanguage } from "../../../lib/i18n.ts";
import { formatMoney, majorUnit } from "../../../lib/money.ts";
import { notify } from "../../../lib/notifications.ts";
import { personalData } from "../../../lib/personal-data.ts";
import { type DownloadProgress, downloadTicket, exportSales } from "../api/sales-files.ts";
import { type SalesFilter, salesListQueryOptions } from "../api/sales-list.ts";
import { ExportProgress } from "./export-progress.tsx";
import { StatementsSection } from "./statements-section.tsx";

const resolveFilters = zod4Resolver(SalesFiltersForm);
/** The ticket filter's longest text (the contract's). */
const TEXT_MAX = 100;

export interface SalesPageProps {
  filter: SalesFilter;
  page: number;
  /** Puts the filter and page in the URL (state a user keeps). */
  onChange(next: { filter: SalesFilter; page: number }): void;
}

const KIND_COLOR: Record<string, string> = {
  ticket: "blue",
  emd: "grape",
  void: "gray",
  refund: "orange",
  exchange: "teal",
};

/** Sales lines with the spec's filter and page size, totals per currency, the report export and ticket receipts. */
export function SalesPage({ filter, page, onChange }: SalesPageProps) {
  const { t } = useTranslation("sales");
  const language = useSiteLanguage();
  const { height } = useViewportSize();
  // Before the first measure the hook says 0: the page size waits for the real height.
  const perPage = salesPageSize(height || window.innerHeight);
  const sales = useQuery({ ...salesListQueryOptions(filter, page, perPage), ...shownInline });
  const say = useFormErrorWords({ max: TEXT_MAX, days: MAX_SALES_RANGE_DAYS });
  const form = useForm<SalesFiltersValues>({
    initialValues: { text: filter.text, date_from: filter.dateFrom, date_to: filter.dateTo },
  });
  const toUrl = (values: SalesFiltersValues) =>
    onChange({ filter: { text: values.text, dateFrom: values.date_from, dateTo: values.date_to }, page: 1 });
  const search = useDebouncedCallback(toUrl, 300);
  // The filter applies as it is typed or picked, once the schema accepts it; else the field says what is wrong.
  const change = <Field extends keyof SalesFiltersValues>(field: Field, value: SalesFiltersValues[Field]) => {
    form.setFieldValue(field, value as never);
    const values = form.getValues();
    const errors = translatedValidation(resolveFilters, say)(values);
    form.setErrors(errors);
    if (Object.keys(errors).length > 0) return search.cancel();
    if (field === "text") search(values);
    else toUrl(values);
  };
  // Dates that change in the URL (back, a shared link) show in their fields.
  const { setFieldValue } = form;
  useEffect(() => {
    setFieldValue("date_from", filter.dateFrom);
    setFieldValue("date_to", filter.dateTo);
  }, [filter.dateFrom, filter.dateTo, setFieldValue]);
  const [exporting, setExporting] = useState(false);
  // The last export's progress: shown while it downloads, then what it downloaded (until the next export).
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const lines = sales.data?.data ?? [];
  const total = sales.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / perPage));

  const runExport = async () => {
    setExporting(true);
    setProgress(null);
    try {
      const outcome = await exportSales(filter, language, setProgress);
      if (outcome === "empty") notify({ type: "error", text: t("export.empty") });
      if (outcome === "emailed") notify({ type: "success", text: t("export.emailed") });
    } catch {
      setProgress(null);
      notify({ type: "error", text: t("export.failed") });
    } finally {
      setExporting(false);
    }
  };

  return (
    <Container fluid px="lg" py="md" maw={1480}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <Stack gap={2}>
            <Title order={1} fz={22}>
              {t("title")}
            </Title>
            <Text c="dimmed" fz="sm">
              {t("lead")}
            </Text>
          </Stack>
          <Group gap="sm" align="center">
            {exporting || progress?.done ? <ExportProgress progress={progress} /> : null}
            <Button leftSection={<IconFileSpreadsheet size={16} />} loading={exporting} onClick={runExport}>
              {t("export.button")}
            </Button>
          </Group>
        </Group>

        <Paper withBorder radius="md" p="sm">
          <Group gap="xs" wrap="wrap" role="search">
            <TextInput
              aria-label={t("filters.text")}
              placeholder={t("filters.text_placeholder")}
              leftSection={<IconSearch size={14} />}
              size="xs"
              w={300}
              {...form.getInputProps("text")}
              onChange={(event) => change("text", event.currentTarget.value)}
            />
            <DateField
              size="xs"
              w={150}
              aria-label={t("filters.date_from")}
              placeholder={t("filters.date_from")}
              clearable
              value={form.values.date_from}
              error={form.errors.date_from}
              onChange={(value) => change("date_from", value)}
            />
            <DateField
              size="xs"
              w={150}
              aria-label={t("filters.date_to")}
              placeholder={t("filters.date_to")}
              clearable
              value={form.values.date_to}
              error={form.errors.date_to}
              onChange={(value) => change("date_to", value)}
            />
            {sales.isFetching ? <Loader size={14} aria-label={t("loading")} /> : null}
          </Group>
        </Paper>

        <LoadFailed query={sales} />

        <Paper withBorder radius="md" style={{ overflow: "hidden" }}>
          {/* Narrower than the table: it scrolls inside the panel, the date column kept in view. */}
          <Table.ScrollContainer minWidth={1100} type="native">
            <Table striped highlightOnHover fz="sm" aria-label={t("title")}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("columns.date")}</Table.Th>
                  <Table.Th>{t("columns.document")}</Table.Th>
                  <Table.Th>{t("columns.number")}</Table.Th>
                  <Table.Th>{t("columns.locator")}</Table.Th>
                  <Table.Th>{t("columns.passenger")}</Table.Th>
                  <Table.Th>{t("columns.route")}</Table.Th>
                  <Table.Th>{t("columns.agent")}</Table.Th>
                  <Table.Th ta="right">{t("columns.fare")}</Table.Th>
                  <Table.Th ta="right">{t("columns.taxes")}</Table.Th>
                  <Table.Th ta="right">{t("columns.fees")}</Table.Th>
                  <Table.Th ta="right">{t("columns.total")}</Table.Th>
                  <Table.Th>{t("columns.paid_by")}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t("columns.receipt")}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {lines.map((line) => (
                  <Table.Tr key={line.id}>
                    <Table.Td>{formatInstant(line.sold_at, language)}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={KIND_COLOR[line.kind] ?? "gray"}>
                        {t(`kinds.${line.kind}`)}
                      </Badge>
                      {/* A document voided, refunded or exchanged since: its own line says so beside the later one. */}
                      {(line.kind === "ticket" || line.kind === "exchange" || line.kind === "emd") &&
                      line.status !== "issued" ? (
                        <Badge variant="outline" color="gray" ml={4}>
                          {t(`statuses.${line.status}`)}
                        </Badge>
                      ) : null}
                    </Table.Td>
                    <Table.Td ff="monospace">{line.document_number}</Table.Td>
                    <Table.Td ff="monospace">{line.locator}</Table.Td>
                    <Table.Td {...personalData}>{line.passenger_name}</Table.Td>
                    <Table.Td>
                      {line.carrier} {line.route}
                    </Table.Td>
                    <Table.Td {...personalData}>{line.agent_name ?? "—"}</Table.Td>
                    <Table.Td ta="right">
                      {formatMoney({ amount: line.base_fare, currency: line.currency }, language)}
                    </Table.Td>
                    <Table.Td ta="right">
                      {formatMoney({ amount: line.taxes, currency: line.currency }, language)}
                    </Table.Td>
                    <Table.Td ta="right">
                      {formatMoney(
                        {
                          amount: line.agency_markup + line.company_markup + line.transaction_fee,
                          currency: line.currency,
                        },
                        language,
                      )}
                    </Table.Td>
                    <Table.Td ta="right" fw={600}>
                      {formatMoney({ amount: line.total, currency: line.currency }, language)}
                    </Table.Td>
                    <Table.Td data-testid="sale-paid-by" {...personalData}>
                      {line.paid_by ? paidByText(line.paid_by, t("columns.paid_by_balance")) : "—"}
                    </Table.Td>
                    <Table.Td>
                      {line.kind === "ticket" || line.kind === "exchange" ? (
                        <ReceiptButton line={line} />
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
                {lines.length === 0 && !sales.isFetching ? (
                  <Table.Tr>
                    <Table.Td colSpan={12}>
                      <Text c="dimmed" ta="center" py="lg">
                        {t("empty")}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : null}
              </Table.Tbody>
              {sales.data && sales.data.meta.totals.length > 0 ? (
                <Table.Tfoot>
                  {sales.data.meta.totals.map((sum) => (
                    <Table.Tr key={sum.currency} fw={700}>
                      <Table.Td colSpan={7}>
                        {t("totals", { count: sum.lines, currency: sum.currency })}
                      </Table.Td>
                      <Table.Td ta="right">
                        {formatMoney({ amount: sum.base_fare, currency: sum.currency }, language)}
                      </Table.Td>
                      <Table.Td ta="right">
                        {formatMoney({ amount: sum.taxes, currency: sum.currency }, language)}
                      </Table.Td>
                      <Table.Td ta="right">
                        {formatMoney(
                          {
                            amount: sum.agency_markup + sum.company_markup + sum.transaction_fee,
                            currency: sum.currency,
                          },
                          language,
                        )}
                      </Table.Td>
                      <Table.Td ta="right">
                        {formatMoney({ amount: sum.total, currency: sum.currency }, language)}
                      </Table.Td>
                      <Table.Td />
                    </Table.Tr>
                  ))}
                </Table.Tfoot>
              ) : null}
            </Table>
          </Table.ScrollContainer>
        </Paper>
        <Group justify="space-between">
          <Text fz="sm" c="dimmed">
            {t("count", { count: total })}
          </Text>
          <Pagination
            total={pages}
            value={Math.min(page, pages)}
            onChange={(next) => onChange({ filter, page: next })}
            getControlProps={(control) => ({ "aria-label": t(`pagination.${control}`) })}
            getItemProps={(n) => ({ "aria-label": t("pagination.page", { page: n }) })}
          />
        </Group>

        <StatementsSection />
      </Stack>
    </Container>
  );
}

/** The receipt of one ticket, with the agent's own prices for the traveller when filled in. */
function ReceiptButton({ line }: { line: SaleLine }) {
  const { t } = useTranslation("sales");
  const language = useSiteLanguage();
  const unit = majorUnit(line.currency);
  const [busy, setBusy] = useState(false);
  const say = useFormErrorWords();
  const pricesForm = useMemo(() => receiptPricesForm(unit), [unit]);
  const prices = useForm<ReceiptPricesValues>({
    initialValues: { fare: "", taxes: "", fees: "" },
    validate: translatedValidation(zod4Resolver(pricesForm), say),
  });
  const download = async (custom: ReceiptPricesValues | null) => {
    setBusy(true);
    try {
      await downloadTicket(line, language, custom ? pricesForm.parse(custom) : null);
    } catch {
      notify({ type: "error", text: t("receipt.failed") });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon
        variant="subtle"
        aria-label={t("receipt.download", { number: line.document_number })}
        loading={busy}
        onClick={() => download(null)}
      >
        <IconFileTypePdf size={18} />
      </ActionIcon>
      <Popover width={260} position="left" withArrow trapFocus>
        <Popover.Target>
          <Button variant="subtle" size="compact-xs">
            {t("receipt.custom")}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <form noValidate onSubmit={prices.onSubmit((values) => download(values), focusFirstError)}>
            <Stack gap="xs">
              <Text fz="xs" c="dimmed">
                {t("receipt.custom_hint", { currency: line.currency })}
              </Text>
              <NumberInput
                size="xs"
                label={t("columns.fare")}
                min={0}
                decimalScale={2}
                {...prices.getInputProps("fare")}
              />
              <NumberInput
                size="xs"
                label={t("columns.taxes")}
                min={0}
                decimalScale={2}
                {...prices.getInputProps("taxes")}
              />
              <NumberInput
                size="xs"
                label={t("columns.fees")}
                min={0}
                decimalScale={2}
                {...prices.getInputProps("fees")}
              />
              <Button size="xs" type="submit" loading={busy}>
                {t("receipt.custom_download")}
              </Button>
            </Stack>
          </form>
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}
