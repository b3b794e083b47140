import {
  Alert,
  Badge,
  Box,
  Button,
  Grid,
  Group,
  Input,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { type UseFormReturnType, useForm } from "@mantine/form";
import { useMediaQuery } from "@mantine/hooks";
import type { Fare, OriginDestination, PassengerCounts } from "@skyward/contracts/offers";
import { loyaltyAccepted } from "@skyward/contracts/passenger-services";
import { IconArrowLeft, IconMail, IconPhone } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { zod4Resolver } from "mantine-form-zod-resolver";
import { type KeyboardEvent, type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { DateField } from "../../../components/travel/date-field.tsx";
import { FareConditions } from "../../../components/travel/fare-conditions.tsx";
import { FlightSummary } from "../../../components/travel/flight-summary.tsx";
import { PriceBreakdown } from "../../../components/travel/price-breakdown.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { balancesQueryOptions } from "../../../lib/balances.ts";
import { countryOptions } from "../../../lib/countries.ts";
import { airportDay, todayIso } from "../../../lib/date-format.ts";
import { useFareText } from "../../../lib/fare-text.ts";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { notify } from "../../../lib/notifications.ts";
import { personalData } from "../../../lib/personal-data.ts";
import { useBookOffer } from "../api/book-offer.ts";
import {
  type BookingDraft,
  bookingDraftSchema,
  type DocumentType,
  type Gender,
  isDraftErrorKey,
  type PassengerDraft,
  serverErrors,
  validateDraft,
} from "./booking-draft.ts";
import { forgetDraft, initialDraft, keepDraft } from "./booking-draft-storage.ts";
import { useClientView } from "./client-view.ts";
import { type PickedTraveller, TravellerPicker } from "./traveller-picker.tsx";

interface BookingFormProps {
  searchResultId: string;
  option: OriginDestination;
  fare: Fare;
  counts: PassengerCounts;
  onBack: () => void;
}

type DraftForm = UseFormReturnType<BookingDraft>;

/** A field's error: a catalogue key found by the form's check, or the server's own words. */
function useFieldError() {
  const { t } = useTranslation("search");
  return (error: ReactNode) =>
    isDraftErrorKey(error) ? t(`booking.errors.${error}`) : typeof error === "string" ? error : undefined;
}

function PassengerCard({
  index,
  passenger,
  form,
  departureDate,
  lastDate,
  carriers,
}: {
  index: number;
  passenger: PassengerDraft;
  form: DraftForm;
  departureDate: string;
  lastDate: string;
  /** The marketing carriers of the fare's flights: a loyalty number must suit each. */
  carriers: readonly string[];
}) {
  const { t } = useTranslation("search");
  const formats = useFormats();
  const message = useFieldError();
  const countries = countryOptions(formats.language);
  const path = (field: string) => `passengers.${index}.${field}`;
  const at = (field: string) => message(form.errors[path(field)]);
  // Editing a field takes its error away; the others keep theirs until the next submission.
  const set = (field: string, value: unknown) => form.setFieldValue(path(field), value as never);
  const title = t("booking.passenger", { number: index + 1, type: t(`passenger_types.${passenger.type}`) });
  // On a phone each field takes the whole width (issue 27).
  const narrow = useMediaQuery("(max-width: 36em)");
  const grid = (columns: string) =>
    ({ display: "grid", gridTemplateColumns: narrow ? "minmax(0, 1fr)" : columns, gap: 10 }) as const;
  // A kept traveller fills the passenger; a document that expires before the trip ends is refused at its field.
  const pick = ({ traveller, document }: PickedTraveller) => {
    set("gender", traveller.gender);
    set("first_name", traveller.first_name ?? "");
    set("last_name", traveller.last_name ?? "");
    set("date_of_birth", traveller.date_of_birth);
    if (document) set("document", { ...document });
    if (document) form.validateField(path("document.expires_on"));
    // The first loyalty number every carrier of the flights takes (its own or its alliance's), and the SSRs.
    const loyalty =
      traveller.loyalty.find((l) => carriers.every((c) => loyaltyAccepted(c, l.carrier))) ?? null;
    set("services", { loyalty, ssrs: traveller.ssrs });
  };
  const services = passenger.services;
  const [recentAsked, setRecentAsked] = useState(0);
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="fieldset"
      aria-label={title}
      style={{ margin: 0 }}
      // Alt+T in any of the passenger's fields: the company's recent travellers, one to pick in.
      onKeyDown={(event: KeyboardEvent<HTMLFieldSetElement>) => {
        if (!event.altKey || event.code !== "KeyT") return;
        event.preventDefault();
        setRecentAsked((asked) => asked + 1);
      }}
    >
      <Group justify="space-between" mb="sm">
        <Group gap={8}>
          <Badge variant="filled" radius="sm" size="lg" w={30} px={0}>
            {index + 1}
          </Badge>
          <Text component="legend" fw={650} fz="sm" p={0} style={{ float: "left" }}>
            {title}
          </Text>
        </Group>
        <Text fz="xs" c="dimmed">
          {t("booking.latin_hint")}
        </Text>
      </Group>
      <Stack gap="sm">
        <TravellerPicker index={index} lastDate={lastDate} onPick={pick} recentAsked={recentAsked} />
        {services && (services.loyalty || services.ssrs.length > 0) ? (
          <Text fz="xs" c="dimmed" data-testid="passenger-services" {...personalData}>
            {[
              services.loyalty ? t("booking.traveller.loyalty", services.loyalty) : null,
              services.ssrs.length > 0
                ? t("booking.traveller.ssrs", { codes: services.ssrs.join(", ") })
                : null,
            ]
              .filter(Boolean)
              .join(" · ")}
          </Text>
        ) : null}
        <Box style={grid("auto minmax(0, 1fr) minmax(0, 1fr) 150px")}>
          <Input.Wrapper
            label={t("booking.gender")}
            labelElement="div"
            error={at("gender")}
            id={`gender-${index}`}
          >
            <SegmentedControl
              aria-labelledby={`gender-${index}-label`}
              value={passenger.gender ?? ""}
              onChange={(gender) => set("gender", gender as Gender)}
              fullWidth
              styles={{
                root: at("gender") ? { outline: "1px solid var(--mantine-color-error)" } : undefined,
                label: { paddingBlock: 6 },
              }}
              data={[
                { value: "M", label: t("booking.male") },
                { value: "F", label: t("booking.female") },
              ]}
            />
          </Input.Wrapper>
          <TextInput
            label={t("booking.first_name")}
            {...personalData}
            value={passenger.first_name}
            onChange={(event) => set("first_name", event.currentTarget.value)}
            error={at("first_name")}
            autoComplete="off"
            styles={{ input: { textTransform: "uppercase" } }}
          />
          <TextInput
            label={t("booking.last_name")}
            {...personalData}
            value={passenger.last_name}
            onChange={(event) => set("last_name", event.currentTarget.value)}
            error={at("last_name")}
            autoComplete="off"
            styles={{ input: { textTransform: "uppercase" } }}
          />
          <DateField
            label={t("booking.date_of_birth")}
            value={passenger.date_of_birth}
            onChange={(date) => set("date_of_birth", date)}
            maxDate={departureDate}
            defaultLevel="decade"
            error={at("date_of_birth")}
          />
        </Box>
        <Box style={grid("150px minmax(0, 1fr) minmax(0, 1fr) minmax(0, 1fr) 150px")}>
          <Select
            label={t("booking.document_type")}
            value={passenger.document.type}
            allowDeselect={false}
            onChange={(type) => type && set("document.type", type as DocumentType)}
            data={[
              { value: "passport", label: t("booking.document_types.passport") },
              { value: "national_id", label: t("booking.document_types.national_id") },
            ]}
          />
          <TextInput
            label={t("booking.document_number")}
            {...personalData}
            value={passenger.document.number}
            onChange={(event) => set("document.number", event.currentTarget.value)}
            error={at("document.number")}
            autoComplete="off"
            styles={{
              input: { textTransform: "uppercase", fontFamily: "var(--mantine-font-family-monospace)" },
            }}
          />
          <Select
            label={t("booking.issuing_country")}
            placeholder={t("booking.country_placeholder")}
            searchable
            selectFirstOptionOnChange
            allowDeselect={false}
            data={countries}
            value={passenger.document.issuing_country}
            onChange={(country) => {
              set("document.issuing_country", country);
              // Most travellers hold their own country's passport.
              if (passenger.document.nationality === null) set("document.nationality", country);
            }}
            error={at("document.issuing_country")}
          />
          <Select
            label={t("booking.nationality")}
            placeholder={t("booking.country_placeholder")}
            searchable
            selectFirstOptionOnChange
            allowDeselect={false}
            data={countries}
            value={passenger.document.nationality}
            onChange={(country) => set("document.nationality", country)}
            error={at("document.nationality")}
          />
          <DateField
            label={t("booking.expires_on")}
            value={passenger.document.expires_on}
            onChange={(date) => set("document.expires_on", date)}
            minDate={departureDate}
            defaultLevel="year"
            error={at("document.expires_on")}
          />
        </Box>
      </Stack>
    </Paper>
  );
}

/** The booking form for the chosen fare: a block per passenger, the contacts, and the fare's summary beside. */
/** The balances that cannot pay `price` (same currency, less than the price): the agent hears it before booking. */
function useShortBalances(price: { amount: number; currency: string }) {
  const balances = useQuery(balancesQueryOptions());
  return (balances.data ?? []).filter(
    (row) => row.balance_amount.currency === price.currency && row.balance_amount.amount < price.amount,
  );
}

export function BookingForm({ searchResultId, option, fare, counts, onBack }: BookingFormProps) {
  const { t } = useTranslation("search");
  const { t: tp } = useTranslation("pricing");
  const clientView = useClientView();
  const short = useShortBalances(fare.price);
  const fareText = useFareText();
  const formats = useFormats();
  const message = useFieldError();
  const navigate = useNavigate();
  const book = useBookOffer();
  const [general, setGeneral] = useState<string[]>([]);
  // One key per filled-in form: a double click or a retry of the same data holds one booking.
  const idempotencyKey = useRef(newIdempotencyKey());

  const firstFlight = option.flights[0];
  const lastFlight = option.flights.at(-1);
  const departureDate = firstFlight ? airportDay(firstFlight.departure_at) : todayIso();
  const lastDate = lastFlight ? airportDay(lastFlight.arrival_at) : departureDate;
  const trip = { departureDate, lastDate, today: todayIso() };
  const carriers = option.flights.flatMap((flight) => flight.segments.map((segment) => segment.carrier));

  const [opening] = useState(() => initialDraft(fare.fare_id, counts));
  const form = useForm<BookingDraft>({
    initialValues: opening,
    validate: zod4Resolver(bookingDraftSchema(trip)),
    onValuesChange: (values) => {
      keepDraft(fare.fare_id, values);
      idempotencyKey.current = newIdempotencyKey();
    },
  });
  const draft = form.getValues();

  const sendBooking = (values: BookingDraft) => {
    if (book.isPending) return;
    setGeneral([]);
    const checked = validateDraft(values, trip);
    if (!checked.request) return;
    book.mutate(
      {
        request: { search_result_id: searchResultId, fare_id: fare.fare_id, ...checked.request },
        idempotencyKey: idempotencyKey.current,
      },
      {
        onSuccess: (booking) => {
          if (booking.error) notify({ type: "error", text: booking.error });
          // A price that rose between the search and the booking is news to act on, not a success.
          if (booking.price.currency === fare.price.currency && booking.price.amount > fare.price.amount)
            notify({
              type: "warning",
              text: tp("price_rose", {
                locator: booking.locator,
                before: formats.money({ amount: fare.price.amount, currency: fare.price.currency }),
                after: formats.money(booking.price),
              }),
            });
          const text =
            booking.status === "issued"
              ? t("booking.issued", { locator: booking.locator, count: booking.tickets?.length ?? 0 })
              : booking.provider_status === "in_progress"
                ? t("booking.in_progress", { locator: booking.locator })
                : booking.time_limit
                  ? t("booking.held", {
                      locator: booking.locator,
                      time_limit: formats.instant(booking.time_limit),
                    })
                  : t("booking.held_no_limit", { locator: booking.locator });
          notify({ type: "success", text });
          forgetDraft(fare.fare_id);
          void navigate({ to: "/bookings", search: { locator: booking.locator } });
        },
        onError: (error) => {
          const fromServer = serverErrors(error, values);
          form.setErrors(
            Object.fromEntries(
              Object.entries(fromServer.fields).map(([path, e]) => [path, "key" in e ? e.key : e.text]),
            ),
          );
          setGeneral(fromServer.general);
        },
      },
    );
  };
  const submit = form.onSubmit(sendBooking, (errors, values, event) => {
    setGeneral([]);
    focusFirstError(errors, values, event);
  });

  const invalid = Object.keys(form.errors).length;
  return (
    <Grid gap="md" align="flex-start">
      <Grid.Col span={{ base: 12, lg: 8 }}>
        <form onSubmit={submit} noValidate aria-label={t("booking.title")}>
          <Stack gap="md">
            <Stack gap={2} align="flex-start">
              <Button
                variant="subtle"
                size="compact-sm"
                leftSection={<IconArrowLeft size={14} />}
                onClick={onBack}
                px={4}
              >
                {t("booking.back")}
              </Button>
              <Title order={2} fz={20}>
                {t("booking.title")}
              </Title>
            </Stack>
            {draft.passengers.map((passenger, index) => (
              <PassengerCard
                // biome-ignore lint/suspicious/noArrayIndexKey: the passenger list is fixed by the search
                key={index}
                index={index}
                passenger={passenger}
                form={form}
                departureDate={departureDate}
                lastDate={lastDate}
                carriers={carriers}
              />
            ))}
            <Paper
              withBorder
              radius="md"
              p="md"
              component="fieldset"
              aria-label={t("booking.contacts")}
              style={{ margin: 0 }}
            >
              <Group justify="space-between" mb="sm">
                <Text component="legend" fw={650} fz="sm" p={0} style={{ float: "left" }}>
                  {t("booking.contacts")}
                </Text>
                <Text fz="xs" c="dimmed">
                  {t("booking.contacts_hint")}
                </Text>
              </Group>
              <Box
                style={{
                  display: "grid",
                  gridTemplateColumns: "repeat(auto-fit, minmax(200px, 1fr))",
                  gap: 10,
                }}
              >
                <TextInput
                  label={t("booking.email")}
                  {...personalData}
                  type="email"
                  leftSection={<IconMail size={15} />}
                  value={draft.contacts.email}
                  onChange={(event) => form.setFieldValue("contacts.email", event.currentTarget.value)}
                  error={message(form.errors["contacts.email"])}
                />
                <TextInput
                  label={t("booking.phone")}
                  {...personalData}
                  type="tel"
                  placeholder="+380501234567"
                  leftSection={<IconPhone size={15} />}
                  value={draft.contacts.phone}
                  onChange={(event) => form.setFieldValue("contacts.phone", event.currentTarget.value)}
                  error={message(form.errors["contacts.phone"])}
                />
              </Box>
            </Paper>
            {short.map((row) => (
              <Alert
                key={row.company_id}
                color="orange"
                variant="light"
                title={tp("balance_short_title")}
                data-testid="balance-short"
              >
                <Text fz="sm">
                  {tp("balance_short_text", {
                    company: row.company_name,
                    balance: formats.money(row.balance_amount),
                    price: formats.money({ amount: fare.price.amount, currency: fare.price.currency }),
                  })}
                </Text>
              </Alert>
            ))}
            {general.length > 0 ? (
              <Alert color="red" variant="light" title={t("booking.refused")}>
                <Stack gap={2}>
                  {general.map((text) => (
                    <Text key={text} fz="sm">
                      {text}
                    </Text>
                  ))}
                </Stack>
              </Alert>
            ) : null}
            {/* The total stays in view on the book button while the agent fills a long form (a phone: issue 27). */}
            <Group
              justify="space-between"
              wrap="wrap"
              gap="md"
              pos="sticky"
              bottom={0}
              py="xs"
              bg="var(--skyward-surface)"
              style={{ zIndex: 2 }}
            >
              <Text
                fz="sm"
                c={invalid ? "var(--mantine-color-error)" : "dimmed"}
                style={{ flex: "1 1 200px" }}
              >
                {invalid
                  ? t("booking.fix_fields", { count: invalid })
                  : fare.instant_payment
                    ? t("booking.instant_hold_hint")
                    : t("booking.hold_hint")}
              </Text>
              <Button type="submit" size="md" loading={book.isPending} style={{ flex: "none" }}>
                {t(fare.instant_payment ? "booking.submit_instant" : "booking.submit", {
                  amount: formats.money({ amount: fare.price.amount, currency: fare.price.currency }),
                })}
              </Button>
            </Group>
          </Stack>
        </form>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>
        <Paper
          withBorder
          radius="md"
          p="md"
          pos="sticky"
          top={72}
          component="aside"
          aria-label={t("booking.summary")}
        >
          <Stack gap="sm">
            <Group justify="space-between">
              <Title order={3} fz={15}>
                {t("booking.summary")}
              </Title>
              <Badge variant="light" radius="sm">
                {fareText.brand(fare)}
              </Badge>
            </Group>
            {option.flights.map((flight) => (
              <Stack key={flight.id} gap={4}>
                <Text fz={11} c="dimmed" fw={600} tt="uppercase">
                  {t(`itinerary.${flight.direction}`)} · {formats.day(flight.departure_at)}
                </Text>
                <FlightSummary flight={flight} compact />
              </Stack>
            ))}
            <FareConditions fareSegments={fare.fare_segments} penalty={fare.penalty} />
            <PriceBreakdown detail={fare.price_detail} compact clientView={clientView} />
          </Stack>
        </Paper>
      </Grid.Col>
    </Grid>
  );
}
