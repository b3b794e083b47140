import { Select } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { auditNamesQueryOptions } from "../api/audit.ts";

/**
 * A person or a company of the caller's history, picked by name as it is typed (the server finds them within the
 * caller's scope); the value is its id. An id from the address is named by asking for it.
 */
export function NamePicker({
  kind,
  label,
  value,
  onChange,
  error,
}: {
  kind: "people" | "companies";
  label: string;
  value: string;
  onChange: (id: string) => void;
  error?: string | undefined;
}) {
  const { t } = useTranslation("audit");
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search.trim(), 200);
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  const typed = useQuery({
    ...auditNamesQueryOptions(debounced),
    enabled: debounced.length >= 2 && debounced !== chosen?.label,
  });
  // The address's id, named once (a reload keeps the filter and shows whose it is).
  const known = useQuery({
    ...auditNamesQueryOptions(value),
    enabled: value !== "" && chosen?.value !== value,
  });
  const found = typed.data?.[kind] ?? [];
  const optionOf = (item: { id: string; name: string; role?: string }) => ({
    value: item.id,
    label: "role" in item && item.role ? `${item.name} (${t(`roles.${item.role}`, item.role)})` : item.name,
  });
  const named = known.data?.[kind].find((item) => item.id === value);
  const current =
    chosen?.value === value ? chosen : named ? optionOf(named) : value ? { value, label: value } : null;
  const data = [
    ...(current ? [current] : []),
    ...found.map(optionOf).filter((o) => o.value !== current?.value),
  ];
  return (
    <Select
      size="xs"
      w={220}
      label={label}
      placeholder={t("filters.type_a_name")}
      searchable
      clearable
      clearButtonProps={{ "aria-label": t("filters.clear_name") }}
      data={data}
      value={value || null}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={debounced.length >= 2 && typed.isFetched ? t("filters.nobody") : undefined}
      error={error}
      onChange={(id, option) => {
        setChosen(id && option ? { value: id, label: option.label } : null);
        onChange(id ?? "");
      }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
