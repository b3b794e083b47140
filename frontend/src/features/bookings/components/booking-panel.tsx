import {
  ActionIcon,
  Alert,
  Box,
  CopyButton,
  Divider,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from "@mantine/core";
import type { BookingDetails } from "@skyward/contracts/bookings";
import { paidByText } from "@skyward/contracts/cards";
import { IconAlertTriangle, IconCheck, IconCopy, IconInfoCircle, IconPrinter } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useBookingExtensions } from "../../../components/booking-extensions.tsx";
import { FareConditions } from "../../../components/travel/fare-conditions.tsx";
import { FlightSummary } from "../../../components/travel/flight-summary.tsx";
import { PriceBreakdown } from "../../../components/travel/price-breakdown.tsx";
import { SegmentList } from "../../../components/travel/segment-list.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { formatDay } from "../../../lib/date-format.ts";
import { useFareText } from "../../../lib/fare-text.ts";
import { personalData } from "../../../lib/personal-data.ts";
import { BookingActions } from "./booking-actions.tsx";
import { BookingComments } from "./booking-comments.tsx";
import { BookingContacts } from "./booking-contacts.tsx";
import { SaveTravellerButton } from "./save-traveller.tsx";
import { FakeBadge, StatusBadge } from "./status-badge.tsx";

function Section({ title, aside, children }: { title: string; aside?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Group justify="space-between">
        <Title order={3} fz={14} fw={650}>
          {title}
        </Title>
        {aside}
      </Group>
      {children}
    </Stack>
  );
}

function Fact({
  label,
  value,
  hint,
  tone,
}: {
  label: string;
  value: ReactNode;
  hint?: string;
  tone?: string;
}) {
  return (
    <Stack gap={0} p="xs" bg="var(--skyward-surface)" style={{ borderRadius: 6 }}>
      <Text fz={11} c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: "0.04em" }}>
        {label}
      </Text>
      <Text fz="sm" fw={650} c={tone} style={{ fontVariantNumeric: "tabular-nums" }}>
        {value}
      </Text>
      {hint ? (
        <Text fz={11} c={tone ?? "dimmed"}>
          {hint}
        </Text>
      ) : null}
    </Stack>
  );
}

/** A 13-digit ticket number (accounting code + serial), monospaced so columns of them line up. */
function TicketNumber({ number }: { number: string }) {
  return (
    <Text span ff="monospace" fz="sm" fw={600} data-ticket-number={number}>
      {number}
    </Text>
  );
}

/** Everything about one booking, and what can be done with it now. */
export function BookingPanel({ booking }: { booking: BookingDetails }) {
  const { t } = useTranslation("bookings");
  const { t: tSearch } = useTranslation("search");
  const formats = useFormats();
  const fareText = useFareText();
  const extensions = useBookingExtensions();
  const held = booking.status === "held";
  const ticketOf = (index: number) => booking.tickets.find((ticket) => ticket.passenger_index === index);
  // The moment a held booking is really lost: the agency's automatic cancellation, else the airline's time limit.
  const deadline = booking.cancel_before ?? booking.time_limit;
  const timeLimitSoon = deadline !== null && Date.parse(deadline) - Date.now() < 2 * 3600_000;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Group gap="xs">
            <Title
              order={2}
              fz={24}
              ff="monospace"
              style={{ letterSpacing: "0.04em" }}
              data-testid="booking-locator"
            >
              {booking.locator}
            </Title>
            <CopyButton value={booking.locator}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? t("drawer.copied") : t("drawer.copy")} withArrow>
                  <ActionIcon
                    variant="subtle"
                    color={copied ? "teal" : "gray"}
                    onClick={copy}
                    aria-label={t("drawer.copy")}
                  >
                    {copied ? <IconCheck size={15} /> : <IconCopy size={15} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
            <Tooltip label={t("drawer.print")} withArrow>
              <ActionIcon
                variant="subtle"
                color="gray"
                onClick={() => window.print()}
                aria-label={t("drawer.print")}
              >
                <IconPrinter size={15} />
              </ActionIcon>
            </Tooltip>
            <StatusBadge status={booking.status} size="md" />
            {booking.fake_booking ? <FakeBadge /> : null}
          </Group>
          <Text fz="sm" c="dimmed">
            {booking.fare.route} · {t("drawer.created", { time: formats.instant(booking.created_at) })}
          </Text>
        </Stack>
      </Group>

      <SimpleGrid cols={4} spacing="xs">
        <Fact
          label={t("drawer.total")}
          value={
            <span data-testid="booking-total" data-amount={booking.price.amount}>
              {formats.money(booking.price)}
            </span>
          }
        />
        {held ? (
          <Fact
            label={booking.auto_cancel_at ? t("drawer.auto_cancel_at") : t("drawer.time_limit")}
            value={deadline ? formats.instant(deadline) : "—"}
            hint={deadline ? formats.fromNow(deadline) : undefined}
            tone={timeLimitSoon ? "var(--mantine-color-error)" : undefined}
          />
        ) : (
          <Fact
            label={t("drawer.issued_at")}
            value={booking.issued_at ? formats.instant(booking.issued_at) : "—"}
          />
        )}
        {held ? (
          <Fact
            label={t("drawer.fare")}
            value={fareText.brand(booking.fare.fare)}
            hint={booking.fare.carrier}
          />
        ) : (
          <Fact
            label={t("drawer.void_until")}
            value={booking.void_until ? formats.instant(booking.void_until) : "—"}
            hint={
              booking.void_until && Date.parse(booking.void_until) > Date.now()
                ? formats.fromNow(booking.void_until)
                : undefined
            }
          />
        )}
        <Fact label={t("drawer.passengers_count")} value={booking.passengers.length} />
      </SimpleGrid>

      {held && booking.auto_cancel_at && booking.time_limit ? (
        <Alert color="orange" variant="light" icon={<IconInfoCircle size={16} />}>
          {t("drawer.auto_cancel_notice", {
            time: formats.instant(booking.auto_cancel_at),
            time_limit: formats.instant(booking.time_limit),
          })}
        </Alert>
      ) : null}
      {booking.auto_cancelled_at ? (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle size={16} />}
          data-testid="auto-cancelled"
        >
          {t("drawer.auto_cancelled", {
            time: formats.instant(booking.auto_cancelled_at),
            time_limit: booking.time_limit ? formats.instant(booking.time_limit) : "—",
          })}
        </Alert>
      ) : null}
      {booking.provider_status === "in_progress" ? (
        <Alert color="yellow" variant="light" icon={<IconInfoCircle size={16} />}>
          {t("drawer.in_progress")}
        </Alert>
      ) : null}
      {booking.operation ? (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={16} />} role="status">
          {t(`drawer.being_completed.${booking.operation.kind}`)}
        </Alert>
      ) : null}
      {booking.provider_status === "failed" ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />}>
          {booking.error ?? t("drawer.failed")}
        </Alert>
      ) : booking.error ? (
        <Alert color="red" variant="light">
          {booking.error}
        </Alert>
      ) : null}
      {booking.fake_booking ? (
        <Alert color="orange" variant="light" icon={<IconInfoCircle size={16} />}>
          {t("fake_hint")}
        </Alert>
      ) : null}

      <BookingActions booking={booking} />
      {extensions.now?.(booking)}

      <Divider />
      <Section title={t("drawer.flights")}>
        <Stack gap="sm">
          {booking.fare.flights.map((flight) => (
            <Stack key={flight.id} gap={4}>
              <Text fz={11} c="dimmed" fw={600} tt="uppercase">
                {tSearch(`itinerary.${flight.direction}`)} · {formats.day(flight.departure_at)} ·{" "}
                {formats.duration(flight.duration_minutes)}
              </Text>
              <FlightSummary flight={flight} />
              <Box pl="xs">
                <SegmentList flight={flight} fareSegments={booking.fare.fare.fare_segments} />
              </Box>
            </Stack>
          ))}
          <FareConditions
            fareSegments={booking.fare.fare.fare_segments}
            penalty={booking.fare.fare.penalty}
          />
        </Stack>
      </Section>

      <Divider />
      <Section title={t("drawer.passengers")}>
        <Table fz="sm" verticalSpacing={6} horizontalSpacing="xs" withTableBorder>
          <Table.Thead bg="var(--skyward-surface)">
            <Table.Tr>
              <Table.Th>{t("drawer.passenger_columns.name")}</Table.Th>
              <Table.Th>{t("drawer.passenger_columns.type")}</Table.Th>
              <Table.Th>{t("drawer.passenger_columns.born")}</Table.Th>
              <Table.Th>{t("drawer.passenger_columns.document")}</Table.Th>
              <Table.Th>{t("drawer.passenger_columns.ticket")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody {...personalData}>
            {booking.passengers.map((passenger, index) => {
              const ticket = ticketOf(index);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: passengers are identified by their position (tickets name it)
                <Table.Tr key={index}>
                  <Table.Td fw={600}>
                    {passenger.last_name.toUpperCase()}/{passenger.first_name.toUpperCase()}{" "}
                    <Text span fz="xs" c="dimmed" fw={400}>
                      {passenger.gender === "M" ? t("drawer.mr") : t("drawer.ms")}
                    </Text>
                    {passenger.loyalty ? (
                      <Text fz={11} c="dimmed" fw={400} data-testid="passenger-loyalty">
                        {t("drawer.loyalty", passenger.loyalty)}
                      </Text>
                    ) : null}
                    {passenger.ssrs && passenger.ssrs.length > 0 ? (
                      <Text fz={11} c="dimmed" fw={400} data-testid="passenger-ssrs">
                        {t("drawer.ssrs", { codes: passenger.ssrs.join(", ") })}
                      </Text>
                    ) : null}
                    {booking.fake_booking ? null : (
                      <SaveTravellerButton companyId={booking.company_id} passenger={passenger} />
                    )}
                  </Table.Td>
                  <Table.Td>{tSearch(`passenger_types.${passenger.type}`)}</Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>
                    {formatDay(passenger.date_of_birth, formats.language, "long")}
                  </Table.Td>
                  <Table.Td>
                    <Text fz="xs">
                      {t(`drawer.document_types.${passenger.document.type}`)} {passenger.document.number}
                    </Text>
                    <Text fz={11} c="dimmed">
                      {passenger.document.issuing_country} · {passenger.document.nationality} ·{" "}
                      {t("drawer.valid_until", {
                        date: formatDay(passenger.document.expires_on, formats.language, "long"),
                      })}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {ticket ? (
                      <TicketNumber number={ticket.ticket_number} />
                    ) : (
                      <Text fz="xs" c="dimmed">
                        —
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Section>

      {booking.tickets.length > 0 ? (
        <Section title={t("drawer.tickets")}>
          <Table
            fz="sm"
            verticalSpacing={6}
            horizontalSpacing="xs"
            withTableBorder
            aria-label={t("drawer.tickets")}
          >
            <Table.Thead bg="var(--skyward-surface)">
              <Table.Tr>
                <Table.Th>{t("drawer.ticket_columns.number")}</Table.Th>
                <Table.Th>{t("drawer.ticket_columns.passenger")}</Table.Th>
                <Table.Th ta="right">{t("drawer.ticket_columns.fare")}</Table.Th>
                <Table.Th ta="right">{t("drawer.ticket_columns.taxes")}</Table.Th>
                <Table.Th ta="right">{t("drawer.ticket_columns.total")}</Table.Th>
                <Table.Th>{t("drawer.ticket_columns.paid_by")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {booking.tickets.map((ticket) => (
                <Table.Tr key={ticket.ticket_number}>
                  <Table.Td>
                    <TicketNumber number={ticket.ticket_number} />
                  </Table.Td>
                  <Table.Td {...personalData}>{ticket.passenger_name}</Table.Td>
                  <Table.Td ta="right">{formats.money(ticket.base_fare)}</Table.Td>
                  <Table.Td ta="right">{formats.money(ticket.taxes)}</Table.Td>
                  <Table.Td ta="right" fw={600}>
                    {formats.money(ticket.total)}
                  </Table.Td>
                  <Table.Td data-testid="ticket-paid-by" {...personalData}>
                    {ticket.paid_by
                      ? paidByText(ticket.paid_by, t("drawer.ticket_columns.paid_by_balance"))
                      : "—"}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Section>
      ) : null}

      {extensions.history?.(booking)}
      {extensions.ancillaries?.(booking)}

      <Divider />
      <Section title={t("drawer.price")}>
        <PriceBreakdown detail={booking.price_detail} />
      </Section>

      <Divider />
      <Section title={t("drawer.contacts")}>
        <BookingContacts
          key={`${booking.contacts.email}|${booking.contacts.phone}`}
          locator={booking.locator}
          contacts={booking.contacts}
          editable={held || booking.status === "issued"}
        />
      </Section>

      <Divider />
      <Section title={t("drawer.comments")}>
        <BookingComments locator={booking.locator} comments={booking.comments} />
      </Section>
    </Stack>
  );
}
