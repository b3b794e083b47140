import { Combobox, Group, Loader, Text, TextInput, useCombobox } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { CITY_AIRPORTS } from "@skyward/contracts/city-codes";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAirportName } from "../../../lib/airport-names.ts";
import { countryName } from "../../../lib/countries.ts";
import { useSiteLanguage } from "../../../lib/i18n.ts";
import { useCityName } from "../../../lib/place-names.ts";
import { type AirportSuggestion, airportsQueryOptions } from "../api/airports.ts";

/** "Kyiv (KBP)"; just the code for an airport known only by it (from a search's address). */
export const airportLabel = (airport: AirportSuggestion) =>
  airport.city && airport.city !== airport.code ? `${airport.city} (${airport.code})` : airport.code;

interface AirportInputProps {
  label: string;
  value: AirportSuggestion | null;
  onChange: (airport: AirportSuggestion | null) => void;
  error?: string | undefined;
  icon?: ReactNode;
}

/** City or airport autocomplete over `GET /airports?q=`; the exact code comes first, so "KBP" + Enter picks it. */
export function AirportInput({ label, value, onChange, error, icon }: AirportInputProps) {
  const { t } = useTranslation("search");
  const language = useSiteLanguage();
  const cityName = useCityName();
  const airportName = useAirportName();
  // A city code is named as its main airport's city is.
  const city = (airport: AirportSuggestion) =>
    cityName(CITY_AIRPORTS[airport.code]?.[0] ?? airport.code, airport.city);
  const labelOf = (airport: AirportSuggestion) => airportLabel({ ...airport, city: city(airport) });
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [text, setText] = useState(value ? labelOf(value) : "");
  const [debounced] = useDebouncedValue(text.trim(), 180);
  const typing = !value || text !== labelOf(value);
  const valueLabel = value ? labelOf(value) : null;
  // The city's name in the interface language arrives after the first paint: the chosen airport's text follows it.
  useEffect(() => {
    if (valueLabel !== null) setText(valueLabel);
  }, [valueLabel]);
  const airports = useQuery({ ...airportsQueryOptions(debounced), enabled: typing && debounced.length >= 2 });
  const options = typing ? (airports.data ?? []) : [];

  // The first suggestion is the one Enter takes.
  useEffect(() => {
    if (options.length > 0) combobox.selectFirstOption();
  }, [options, combobox]);

  const choose = (code: string) => {
    const airport = options.find((option) => option.code === code);
    if (!airport) return;
    onChange(airport);
    setText(labelOf(airport));
    combobox.closeDropdown();
  };

  return (
    <Combobox store={combobox} onOptionSubmit={choose} withinPortal>
      <Combobox.Target>
        <TextInput
          label={label}
          placeholder={t("form.airport_placeholder")}
          value={text}
          error={error}
          leftSection={icon}
          autoComplete="off"
          spellCheck={false}
          rightSection={airports.isFetching ? <Loader size={14} /> : null}
          onChange={(event) => {
            setText(event.currentTarget.value);
            if (value) onChange(null);
            combobox.openDropdown();
          }}
          onFocus={(event) => {
            event.currentTarget.select();
            combobox.openDropdown();
          }}
          onBlur={() => {
            combobox.closeDropdown();
            if (value) setText(labelOf(value));
          }}
        />
      </Combobox.Target>
      <Combobox.Dropdown
        hidden={!typing || debounced.length < 2 || (airports.isPending && options.length === 0)}
        miw={340}
      >
        <Combobox.Options aria-label={label}>
          {options.map((airport) => (
            <Combobox.Option value={airport.code} key={airport.code}>
              {/* Named by what it shows, code first in the DOM (typed codes are found by it) but drawn on the right. */}
              <Group gap="sm" wrap="nowrap" justify="space-between">
                <Text fz="sm" fw={700} c="var(--mantine-color-anchor)" ff="monospace" style={{ order: 2 }}>
                  {airport.code}
                </Text>
                <div style={{ minWidth: 0, order: 1 }}>
                  <Text fz="sm" fw={500} truncate="end">
                    {city(airport)}
                  </Text>
                  <Text fz="xs" c="dimmed" truncate="end">
                    {/* The airport's own name (in English only the data's whole name), then the country. */}
                    {[
                      airport.kind === "city"
                        ? t("form.all_airports", { codes: (airport.airports ?? []).join(", ") })
                        : airportName.proper(airport),
                      countryName(airport.country, language),
                    ]
                      .filter(Boolean)
                      .join(" · ")}
                  </Text>
                </div>
              </Group>
            </Combobox.Option>
          ))}
          {options.length === 0 && airports.isFetched ? (
            <Combobox.Empty>{t("form.no_airports")}</Combobox.Empty>
          ) : null}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
