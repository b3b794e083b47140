import { Select } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { balancesQueryOptions } from "../../../lib/balances.ts";

/**
 * The company an administrator or support user books for: the companies their role may see, each with its balance
 * (what an issue will be charged to). The choice lives in the address (`company`), so a reload keeps it.
 */
export function CompanyPicker({
  value,
  onChange,
  missing,
}: {
  value: string | undefined;
  onChange: (companyId: string) => void;
  /** A search waits for the company: say so on the field. */
  missing: boolean;
}) {
  const { t } = useTranslation("search");
  const formats = useFormats();
  const balances = useQuery(balancesQueryOptions());
  const data = (balances.data ?? []).map((row) => ({
    value: row.company_id,
    label: t("company.option", { name: row.company_name, balance: formats.money(row.balance_amount) }),
  }));
  return (
    <Select
      label={t("company.label")}
      placeholder={t("company.placeholder")}
      description={t("company.hint")}
      data={data}
      value={value ?? null}
      onChange={(next) => next && onChange(next)}
      searchable
      nothingFoundMessage={t("company.none")}
      error={missing ? t("company.required") : undefined}
      maw={520}
      allowDeselect={false}
      data-testid="company-picker"
    />
  );
}
