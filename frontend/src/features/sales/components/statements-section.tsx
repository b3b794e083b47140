import {
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconFileSpreadsheet, IconFileTypePdf } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadFailed, shownInline } from "../../../components/load-failed.tsx";
import { errorMessages } from "../../../lib/api-client.ts";
import { balancesQueryOptions } from "../../../lib/balances.ts";
import { useSiteLanguage } from "../../../lib/i18n.ts";
import { formatMoney } from "../../../lib/money.ts";
import { notify } from "../../../lib/notifications.ts";
import { downloadInvoice, downloadStatement, invoicesQueryOptions } from "../api/statements.ts";

const thisMonth = () => new Date().toISOString().slice(0, 7);

/** A company's monthly statement (PDF, xlsx) and the month's invoices and credit notes, for download. */
export function StatementsSection() {
  const { t } = useTranslation("sales");
  const language = useSiteLanguage();
  const balances = useQuery(balancesQueryOptions());
  const companies = balances.data ?? [];
  const [month, setMonth] = useState(thisMonth());
  const [chosen, setChosen] = useState<string | null>(null);
  const companyId = chosen ?? companies[0]?.company_id ?? "";
  const validMonth = /^\d{4}-(0[1-9]|1[0-2])$/.test(month) && month <= thisMonth();
  const invoices = useQuery({ ...invoicesQueryOptions(validMonth ? month : "", companyId), ...shownInline });
  const saving = (run: () => Promise<void>) => () =>
    run().catch((error) => notify({ type: "error", text: errorMessages(error).join(" ") }));
  if (companies.length === 0) return null;

  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-label={t("statements.title")}>
      <Stack gap="xs">
        <Title order={2} fz={15} fw={650}>
          {t("statements.title")}
        </Title>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <NativeSelect
            size="xs"
            label={t("statements.company")}
            value={companyId}
            onChange={(event) => setChosen(event.currentTarget.value)}
            data={companies.map((c) => ({ value: c.company_id, label: c.company_name }))}
          />
          <TextInput
            size="xs"
            type="month"
            label={t("statements.month")}
            value={month}
            max={thisMonth()}
            onChange={(event) => setMonth(event.currentTarget.value)}
            error={validMonth ? undefined : t("statements.bad_month")}
          />
          <Button
            size="xs"
            variant="light"
            disabled={!validMonth}
            onClick={saving(() => downloadStatement(companyId, month, "pdf", language))}
            leftSection={<IconFileTypePdf size={14} />}
          >
            {t("statements.pdf")}
          </Button>
          <Button
            size="xs"
            variant="light"
            disabled={!validMonth}
            onClick={saving(() => downloadStatement(companyId, month, "xlsx", language))}
            leftSection={<IconFileSpreadsheet size={14} />}
          >
            {t("statements.xlsx")}
          </Button>
        </Group>
        {invoices.isError ? (
          <LoadFailed query={invoices} />
        ) : (invoices.data ?? []).length === 0 ? (
          <Text fz="sm" c="dimmed">
            {t("statements.no_documents")}
          </Text>
        ) : (
          <Table fz="sm" verticalSpacing={4} withTableBorder aria-label={t("statements.documents")}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("statements.number")}</Table.Th>
                <Table.Th>{t("columns.locator")}</Table.Th>
                <Table.Th>{t("columns.number")}</Table.Th>
                <Table.Th ta="right">{t("statements.amount")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(invoices.data ?? []).map((d) => (
                <Table.Tr key={d.invoice_id}>
                  <Table.Td>
                    <Anchor
                      component="button"
                      type="button"
                      fz="sm"
                      onClick={saving(() => downloadInvoice(d, language))}
                    >
                      {d.number_text}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{d.locator}</Table.Td>
                  <Table.Td>{d.document_number}</Table.Td>
                  <Table.Td ta="right">
                    {formatMoney({ amount: d.amount, currency: d.currency }, language)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
