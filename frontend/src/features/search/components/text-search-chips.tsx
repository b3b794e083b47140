import {
  ActionIcon,
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Popover,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { MAX_SEATS } from "@skyward/contracts/journey";
import {
  Cabin,
  type JourneySearchRequest,
  MultiCitySearchRequest,
  SearchRequest,
} from "@skyward/contracts/offers";
import type { SearchFilters } from "@skyward/contracts/search";
import {
  type ChipKind,
  DayPeriod,
  type ParsedSearch,
  searchOfChips,
  type TextSearchChip,
  type TextSearchResponse,
} from "@skyward/contracts/text-search";
import { TextSearchChipForm, type TextSearchChipValues } from "@skyward/contracts/text-search-form";
import { IconPencil, IconX } from "@tabler/icons-react";
import { zod4Resolver } from "mantine-form-zod-resolver";
import type { Dispatch, SetStateAction } from "react";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { translatedValidation, useFormErrorWords } from "../../../lib/form-validation.ts";
import { useCityName } from "../../../lib/place-names.ts";
import { AirportInput } from "./airport-input.tsx";

/** A chip on screen: an id of its own so editing or removing one keeps the others' state. */
export type Chip = TextSearchChip & { id: number };

// The parts a line was read into (chips), their editors and the search they make: loaded with the line's first
// reading (text-search.tsx), not with the search page.

/** The filters the line asks for besides the search itself: direct only, preferred carriers, time of day. */
function filtersOf(chips: readonly TextSearchChip[]): SearchFilters {
  const search = searchOfChips(chips);
  return {
    ...(search.direct_only ? { stops: [0] } : {}),
    ...(search.carriers?.length ? { carriers: search.carriers } : {}),
    // The filter narrows every flight: a time of day holds for a one-way search only (as the server reads lines).
    ...(search.departure_time && search.trip === "one_way" ? { departure_time: search.departure_time } : {}),
  };
}

const REQUIRED: ChipKind[] = ["origin", "destination", "departure_date"];

const resolveChip = zod4Resolver(TextSearchChipForm);

/**
 * One chip's editor: the control its kind needs, checked by the chip form's schema (TextSearchChipForm) and applied,
 * or dropped. Its own form in the popover (a portal): its submit stays out of the search line's.
 */
function ChipEditor({
  chip,
  onApply,
  onClose,
}: {
  chip: TextSearchChip;
  onApply: (value: string, label?: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(["text-search", "search"]);
  const say = useFormErrorWords();
  const form = useForm<TextSearchChipValues>({
    initialValues: { kind: chip.kind, value: chip.value, label: chip.label ?? "" },
    validate: translatedValidation(resolveChip, say),
  });
  const { value, label: place } = form.getValues();
  const label = t(`text-search:kinds.${chip.kind}`);
  const input = form.getInputProps("value");
  let control: React.ReactNode;
  switch (chip.kind) {
    case "origin":
    case "destination":
      control = (
        <AirportInput
          label={label}
          value={value ? { code: value, name: place || value, city: place || value, country: "" } : null}
          onChange={(airport) => {
            form.setFieldValue("value", airport?.code ?? "");
            form.setFieldValue("label", airport ? airport.city || airport.code : "");
          }}
          error={input.error}
        />
      );
      break;
    case "departure_date":
    case "return_date":
      control = <TextInput type="date" label={label} {...input} />;
      break;
    case "adults":
    case "children":
    case "infants":
      control = (
        <NumberInput
          label={label}
          min={chip.kind === "adults" ? 1 : 0}
          max={chip.kind === "children" ? MAX_SEATS - 1 : MAX_SEATS}
          {...input}
          value={Number(value)}
          onChange={(n) => form.setFieldValue("value", String(n))}
        />
      );
      break;
    case "cabin":
      control = (
        <NativeSelect
          label={label}
          {...input}
          data={Cabin.options.map((c) => ({ value: c, label: t(`search:cabins.${c}`) }))}
        />
      );
      break;
    case "trip":
      control = (
        <NativeSelect
          label={label}
          {...input}
          data={(["one_way", "round_trip"] as const).map((v) => ({
            value: v,
            label: t(`text-search:trips.${v}`),
          }))}
        />
      );
      break;
    case "carrier":
      control = (
        <TextInput
          label={label}
          maxLength={2}
          {...input}
          onChange={(e) => form.setFieldValue("value", e.currentTarget.value.toUpperCase())}
        />
      );
      break;
    case "departure_time":
      control = (
        <NativeSelect
          label={label}
          {...input}
          data={DayPeriod.options.map((v) => ({ value: v, label: t(`text-search:periods.${v}`) }))}
        />
      );
      break;
    case "direct":
      control = null;
      break;
  }
  const apply = form.onSubmit((values) => {
    const chosen = TextSearchChipForm.parse(values);
    onApply(chosen.value, chosen.label);
    onClose();
  }, focusFirstError);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.stopPropagation();
        apply(event);
      }}
    >
      <Stack gap="xs" w={260}>
        {control}
        <Group justify="flex-end" gap="xs">
          <Button size="compact-sm" variant="default" onClick={onClose}>
            {t("text-search:cancel")}
          </Button>
          <Button size="compact-sm" type="submit">
            {t("text-search:apply")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The chips of a read line, each editable and removable, and the search they make. */
export function TextSearchChips({
  chips,
  setChips,
  slices,
  setSlices,
  notes,
  unrecognised,
  editing,
  setEditing,
  onRun,
}: {
  chips: Chip[];
  setChips: Dispatch<SetStateAction<Chip[] | null>>;
  slices: ParsedSearch["slices"] | null;
  setSlices: (slices: ParsedSearch["slices"] | null) => void;
  notes: Pick<TextSearchResponse, "corrections" | "ask_back">;
  unrecognised: string[];
  editing: number | null;
  setEditing: (index: number | null) => void;
  /** Runs the search the chips make, with the filters the line asked for. */
  onRun: (request: JourneySearchRequest, filters: SearchFilters) => void;
}) {
  const { t } = useTranslation(["text-search", "search"]);
  const formats = useFormats();
  const cityName = useCityName();
  const search = searchOfChips(chips);
  const missing = REQUIRED.filter((kind) => !chips.some((c) => c.kind === kind));
  const request = search
    ? slices
      ? MultiCitySearchRequest.safeParse({
          slices,
          passengers: search.passengers,
          cabin: search.cabin,
        })
      : SearchRequest.safeParse({
          origin: search.origin,
          destination: search.destination,
          departure_date: search.departure_date,
          ...(search.return_date ? { return_date: search.return_date } : {}),
          passengers: search.passengers,
          cabin: search.cabin,
        })
    : null;

  const runSearch = () => {
    if (!request?.success) return;
    onRun(request.data, filtersOf(chips));
  };

  const describe = (chip: TextSearchChip): string => {
    switch (chip.kind) {
      case "origin":
      case "destination":
        return chip.label && chip.label !== chip.value
          ? `${cityName(chip.value, chip.label)} (${chip.value})`
          : chip.value;
      case "departure_date":
      case "return_date":
        return formats.day(chip.value);
      case "cabin":
        return t(`search:cabins.${Cabin.catch("economy").parse(chip.value)}`);
      case "trip":
        return t(`text-search:trips.${chip.value === "round_trip" ? "round_trip" : "one_way"}`);
      case "direct":
        return t("text-search:yes");
      case "departure_time":
        return t(`text-search:periods.${DayPeriod.catch("morning").parse(chip.value)}`);
      case "carrier":
        return chip.label ? `${chip.label} (${chip.value})` : chip.value;
      default:
        return chip.value;
    }
  };

  return (
    <Stack gap={6} aria-live="polite">
      {chips.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {t("text-search:none")}
        </Text>
      ) : (
        <Group gap={6} role="list" aria-label={t("text-search:parts")}>
          {chips.map((chip, index) => {
            const name = `${t(`text-search:kinds.${chip.kind}`)}: ${describe(chip)}`;
            return (
              <Group
                key={chip.id}
                role="listitem"
                gap={2}
                wrap="nowrap"
                px={8}
                py={2}
                bg="var(--skyward-selected)"
                style={{ borderRadius: 999 }}
                data-testid={`text-search-chip-${chip.kind}`}
                title={
                  chip.text ? t("text-search:from_words", { text: chip.text }) : t("text-search:by_model")
                }
              >
                <Text fz="sm" c="var(--mantine-color-anchor)">
                  {name}
                </Text>
                {chip.kind !== "direct" ? (
                  <Popover
                    opened={editing === index}
                    onChange={(open) => setEditing(open ? index : null)}
                    trapFocus
                    withArrow
                  >
                    <Popover.Target>
                      <ActionIcon
                        size="sm"
                        variant="subtle"
                        aria-label={t("text-search:edit", { name })}
                        onClick={() => setEditing(editing === index ? null : index)}
                      >
                        <IconPencil size={14} aria-hidden />
                      </ActionIcon>
                    </Popover.Target>
                    <Popover.Dropdown>
                      <ChipEditor
                        chip={chip}
                        onClose={() => setEditing(null)}
                        onApply={(value, label) => {
                          setSlices(null);
                          setChips((all) =>
                            (all ?? []).map((c, i) =>
                              i === index ? { ...c, value, ...(label ? { label } : {}) } : c,
                            ),
                          );
                        }}
                      />
                    </Popover.Dropdown>
                  </Popover>
                ) : null}
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  aria-label={t("text-search:remove", { name })}
                  onClick={() => {
                    setSlices(null);
                    setChips((all) => (all ?? []).filter((_, i) => i !== index));
                  }}
                >
                  <IconX size={14} aria-hidden />
                </ActionIcon>
              </Group>
            );
          })}
        </Group>
      )}
      {notes.ask_back ? (
        <Text fz="sm" c="var(--skyward-warning-text)" role="status" data-testid="text-search-ask-back">
          {t(`text-search:ask_back.${notes.ask_back.code}`)}
        </Text>
      ) : null}
      {notes.corrections?.map((c) => (
        <Text key={c.from} fz="xs" c="dimmed" data-testid="text-search-correction">
          {t("text-search:corrected", { from: c.from, to: c.to })}
        </Text>
      ))}
      {unrecognised.length > 0 ? (
        <Text fz="xs" c="dimmed" data-testid="text-search-unrecognised">
          {t("text-search:unrecognised", { words: unrecognised.join(", ") })}
        </Text>
      ) : null}
      <Group justify="space-between" gap="xs">
        <Text fz="xs" c="dimmed">
          {missing.length > 0
            ? t("text-search:missing", {
                parts: missing.map((kind) => t(`text-search:kinds.${kind}`)).join(", "),
              })
            : request && !request.success
              ? t("text-search:invalid")
              : ""}
        </Text>
        <Button size="sm" onClick={runSearch} disabled={!request?.success}>
          {t("text-search:search")}
        </Button>
      </Group>
    </Stack>
  );
}
