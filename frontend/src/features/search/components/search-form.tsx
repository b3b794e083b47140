import {
  ActionIcon,
  Box,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Tooltip,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMediaQuery } from "@mantine/hooks";
import { MAX_SLICES } from "@skyward/contracts/journey";
import type { Cabin, JourneySearchRequest } from "@skyward/contracts/offers";
import {
  IconArrowsExchange,
  IconPlaneArrival,
  IconPlaneDeparture,
  IconPlus,
  IconSearch,
  IconTrash,
} from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DateField } from "../../../components/travel/date-field.tsx";
import { shiftDay, todayIso } from "../../../lib/date-format.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { loadSearchChecks, searchChecks, submitWithChecks } from "../load-checks.ts";
import {
  initialSearchForm,
  isSearchFormError,
  type SearchFormField,
  type SearchFormValues,
  type SliceValues,
  slicesFrom,
  type TripType,
} from "../machines/search-form.ts";
import { AirportInput } from "./airport-input.tsx";
import { PassengersPicker } from "./passengers-picker.tsx";

const CABINS: readonly Cabin[] = ["economy", "premium_economy", "business", "first"];
/** The sandbox and most airlines sell up to 361 days ahead. */
const SALES_WINDOW_DAYS = 361;

/** Route, dates, passengers and cabin; sends a checked search request. */
export function SearchForm({
  onSearch,
  searching,
  initial,
}: {
  onSearch: (request: JourneySearchRequest) => void;
  searching: boolean;
  /** The search the page's address names, shown on a reload or a shared link. */
  initial?: SearchFormValues | undefined;
}) {
  const { t } = useTranslation("search");
  const wide = useMediaQuery("(min-width: 75em)", true);
  const form = useForm<SearchFormValues>({
    initialValues: initial ?? initialSearchForm(),
    // The schema (and zod) load when the form is first used: the first submit waits for them (load-checks.ts).
    validate: (checked) => {
      const checks = searchChecks();
      return checks ? checks.zod4Resolver(checks.SearchFormSchema)(checked) : {};
    },
  });
  const values = form.getValues();
  // Swapping remounts the two inputs so they show the airports they now hold.
  const [swaps, setSwaps] = useState(0);
  const today = todayIso();

  const update = <K extends keyof SearchFormValues>(key: K, value: SearchFormValues[K]) =>
    form.setFieldValue(key, value as never);
  const error = (field: SearchFormField) => {
    const message = form.errors[field];
    return isSearchFormError(message) ? t(`form.errors.${message}`) : undefined;
  };

  const submit = submitWithChecks(
    form.onSubmit((checked) => {
      const result = searchChecks()?.validateSearchForm(checked);
      if (result?.ok) onSearch(result.request);
    }, focusFirstError),
  );

  const roundTrip = values.tripType === "round_trip";
  const multiCity = values.tripType === "multi_city";
  const chooseTrip = (tripType: TripType) => {
    if (tripType === "multi_city") form.setValues({ tripType, slices: slicesFrom(values) });
    else update("tripType", tripType);
  };
  // A destination chosen fills the next slice's empty origin: the journey usually goes on from there.
  const setSlice = (i: number, change: Partial<SliceValues>) =>
    update(
      "slices",
      values.slices.map((slice, j) =>
        j === i
          ? { ...slice, ...change }
          : j === i + 1 && change.destination && !slice.origin
            ? { ...slice, origin: change.destination }
            : slice,
      ),
    );
  const addSlice = () => {
    const last = values.slices.at(-1);
    update("slices", [
      ...values.slices,
      { origin: last?.destination ?? null, destination: null, departureDate: null },
    ]);
  };
  const removeSlice = (i: number) =>
    update(
      "slices",
      values.slices.filter((_, j) => j !== i),
    );
  const passengersAndCabin = (
    <>
      <PassengersPicker
        label={t("form.passengers")}
        value={values.passengers}
        onChange={(passengers) => update("passengers", passengers)}
      />
      <Select
        label={t("form.cabin")}
        value={values.cabin}
        allowDeselect={false}
        onChange={(cabin) => cabin && update("cabin", cabin as Cabin)}
        data={CABINS.map((cabin) => ({ value: cabin, label: t(`cabins.${cabin}`) }))}
      />
      <Button
        type="submit"
        mt={25}
        loading={searching}
        leftSection={<IconSearch size={15} />}
        px="lg"
        // The label is never cut: the longest language's word still fits.
        miw="max-content"
      >
        {t("form.submit")}
      </Button>
    </>
  );
  return (
    <Paper
      component="form"
      withBorder
      radius="md"
      p="md"
      onSubmit={submit}
      onFocus={() => void loadSearchChecks().catch(() => undefined)}
      noValidate
      aria-label={t("form.label")}
    >
      <Group justify="space-between" mb="sm">
        <SegmentedControl
          size="xs"
          value={values.tripType}
          onChange={(value) => chooseTrip(value as TripType)}
          data={[
            { value: "one_way", label: t("form.one_way") },
            { value: "round_trip", label: t("form.round_trip") },
            { value: "multi_city", label: t("form.multi_city") },
          ]}
        />
      </Group>
      {multiCity ? (
        <Stack gap="xs">
          {values.slices.map((slice, i) => (
            <Box
              // Slices are positions in the journey: removing one renumbers the rest.
              // biome-ignore lint/suspicious/noArrayIndexKey: a slice has no identity but its place
              key={`${i}-${values.slices.length}`}
              component="fieldset"
              aria-label={t("form.slice", { number: i + 1 })}
              data-slice={i}
              style={{
                border: 0,
                margin: 0,
                padding: 0,
                display: "grid",
                gridTemplateColumns: wide
                  ? "minmax(60px, auto) minmax(180px, 1.3fr) minmax(180px, 1.3fr) minmax(140px, 0.8fr) auto"
                  : "repeat(auto-fill, minmax(min(100%, 160px), 1fr))",
                alignItems: "start",
                gap: 10,
              }}
            >
              <Text fz="sm" fw={600} mt={wide ? 30 : 0}>
                {t("form.slice", { number: i + 1 })}
              </Text>
              <AirportInput
                label={t("form.origin")}
                value={slice.origin}
                onChange={(airport) => setSlice(i, { origin: airport })}
                error={error(`slices.${i}.origin`)}
                icon={<IconPlaneDeparture size={15} />}
              />
              <AirportInput
                label={t("form.destination")}
                value={slice.destination}
                onChange={(airport) => setSlice(i, { destination: airport })}
                error={error(`slices.${i}.destination`)}
                icon={<IconPlaneArrival size={15} />}
              />
              <DateField
                label={t("form.departure_date")}
                value={slice.departureDate}
                onChange={(date) => setSlice(i, { departureDate: date })}
                minDate={today}
                maxDate={shiftDay(today, SALES_WINDOW_DAYS)}
                error={error(`slices.${i}.departureDate`)}
              />
              <Tooltip label={t("form.remove_slice", { number: i + 1 })} withArrow>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  mt={wide ? 27 : 0}
                  aria-label={t("form.remove_slice", { number: i + 1 })}
                  disabled={values.slices.length <= 2}
                  onClick={() => removeSlice(i)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Box>
          ))}
          <Group gap="sm" align="flex-start">
            <Button
              variant="subtle"
              leftSection={<IconPlus size={15} />}
              mt={25}
              disabled={values.slices.length >= MAX_SLICES}
              onClick={addSlice}
            >
              {t("form.add_slice")}
            </Button>
            {passengersAndCabin}
          </Group>
        </Stack>
      ) : (
        <Box
          style={{
            display: "grid",
            // One row on a wide screen; below 1200 px the fields wrap instead of pushing the page sideways.
            gridTemplateColumns: wide
              ? `minmax(180px, 1.3fr) auto minmax(180px, 1.3fr) minmax(140px, 0.8fr) ${
                  roundTrip ? "minmax(140px, 0.8fr) " : ""
                }minmax(150px, 0.8fr) minmax(140px, 0.8fr) auto`
              : "repeat(auto-fill, minmax(min(100%, 160px), 1fr))",
            alignItems: "start",
            gap: 10,
          }}
        >
          <AirportInput
            key={`origin-${swaps}`}
            label={t("form.origin")}
            value={values.origin}
            onChange={(airport) => update("origin", airport)}
            error={error("origin")}
            icon={<IconPlaneDeparture size={15} />}
          />
          <Tooltip label={t("form.swap")} withArrow>
            <ActionIcon
              variant="subtle"
              color="gray"
              mt={27}
              aria-label={t("form.swap")}
              onClick={() => {
                form.setValues({ origin: values.destination, destination: values.origin });
                setSwaps((count) => count + 1);
              }}
            >
              <IconArrowsExchange size={16} />
            </ActionIcon>
          </Tooltip>
          <AirportInput
            key={`destination-${swaps}`}
            label={t("form.destination")}
            value={values.destination}
            onChange={(airport) => update("destination", airport)}
            error={error("destination")}
            icon={<IconPlaneArrival size={15} />}
          />
          <DateField
            label={t("form.departure_date")}
            value={values.departureDate}
            onChange={(date) => update("departureDate", date)}
            minDate={today}
            maxDate={shiftDay(today, SALES_WINDOW_DAYS)}
            error={error("departureDate")}
          />
          {roundTrip ? (
            <DateField
              label={t("form.return_date")}
              value={values.returnDate}
              onChange={(date) => update("returnDate", date)}
              minDate={values.departureDate ?? today}
              maxDate={shiftDay(today, SALES_WINDOW_DAYS)}
              error={error("returnDate")}
            />
          ) : null}
          {passengersAndCabin}
        </Box>
      )}
    </Paper>
  );
}
