import { Alert, Badge, Button, Group, Radio, Stack, Table, Text } from "@mantine/core";
import type { FlightsChangeConfirmResponse } from "@skyward/contracts/bookings";
import type { FareLoss, Flight } from "@skyward/contracts/offers";
import { IconInfoCircle } from "@tabler/icons-react";
import { useMachine } from "@xstate/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DateField } from "../../../components/travel/date-field.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { airportDay, airportTime, dayShift } from "../../../lib/date-format.ts";
import { useFareText } from "../../../lib/fare-text.ts";
import { reissueMachine } from "../machines/reissue.machine.ts";
import {
  AfterSalesDialog,
  type AfterSalesDialogProps,
  AmountCell,
  FiguresTable,
  ValidUntil,
} from "./after-sales-dialog.tsx";

/** The date part of a local time with its offset ("2026-12-15T07:15:00+02:00" → "2026-12-15"). */
const dayOf = (localTime: string | undefined) => localTime?.slice(0, 10) ?? null;

/** Wide enough for the offers' flights, fare and six money columns side by side on a 1280 px screen. */
const EXCHANGE_DIALOG_WIDTH = "min(1180px, calc(100vw - 2rem))";

/** Each new flight: its carriers' flight numbers, the day, and the local departure → arrival times. */
function OfferFlights({ flights }: { flights: Flight[] }) {
  const formats = useFormats();
  return (
    <Stack gap={2}>
      {flights.map((flight) => {
        const shift = dayShift(flight.departure_at, flight.arrival_at);
        return (
          <div key={flight.id} data-direction={flight.direction}>
            <Text fz="sm" fw={600} data-testid="reshop-flight-numbers">
              {flight.segments.map((s) => `${s.carrier} ${s.flight_number}`).join(" · ")}
            </Text>
            <Text fz="xs" c="dimmed" data-testid="reshop-flight-times">
              {`${formats.day(airportDay(flight.departure_at))} ${airportTime(flight.departure_at)} → ${airportTime(flight.arrival_at)}${shift > 0 ? ` +${shift}` : ""}`}
            </Text>
          </div>
        );
      })}
    </Stack>
  );
}

/** What the new fare gives up against the booked one, before the agent confirms it. */
function OfferLosses({ losses }: { losses: FareLoss[] }) {
  const { t } = useTranslation("after-sales");
  const formats = useFormats();
  if (losses.length === 0)
    return (
      <Text fz="xs" c="dimmed" data-testid="reshop-keeps-rules">
        {t("exchange.losses.none")}
      </Text>
    );
  return (
    <Group gap={4} mt={2}>
      {losses.map((loss) => (
        <Badge key={loss.kind} size="sm" color="orange" variant="light" tt="none" data-loss={loss.kind}>
          {"fee" in loss
            ? t(`exchange.losses.${loss.kind}`, { amount: formats.money(loss.fee) })
            : t(`exchange.losses.${loss.kind}`)}
        </Badge>
      ))}
    </Group>
  );
}

/**
 * Exchanging the tickets for the same journey on other dates: the new dates → the airline's offers priced (fare
 * difference, change fee, our fees, residual value, total to pay) → the chosen one confirmed.
 */
export function ExchangeDialog({
  booking,
  opened,
  onClose,
  onDone,
}: AfterSalesDialogProps<FlightsChangeConfirmResponse>) {
  const { t } = useTranslation("after-sales");
  const { t: te } = useTranslation("errors");
  const formats = useFormats();
  const fareText = useFareText();
  const { locator } = booking;
  const [state, send, actor] = useMachine(reissueMachine, { input: { locator } });
  const outbound = booking.fare.flights.find((f) => f.direction === "outbound") ?? booking.fare.flights[0];
  const inbound = booking.fare.flights.find((f) => f.direction === "return");
  const [departure, setDeparture] = useState<string | null>(dayOf(outbound?.departure_at));
  const [returning, setReturning] = useState<string | null>(dayOf(inbound?.departure_at));
  const { flights } = booking.fare;
  // A multi-city journey changes one slice at a time; a round trip may too.
  const multiCity = flights.some((f) => f.direction === "onward");
  const [slice, setSlice] = useState<number | null>(multiCity ? 0 : null);
  const [sliceDate, setSliceDate] = useState<string | null>(dayOf(flights[0]?.departure_at));
  const sliceDirty = slice !== null && sliceDate !== dayOf(flights[slice]?.departure_at);
  const chooseSlice = (value: string) => {
    const index = value === "whole" ? null : Number(value);
    setSlice(index);
    setSliceDate(dayOf(flights[index ?? 0]?.departure_at));
  };

  useEffect(() => {
    const done = actor.on("exchanged", ({ response }) => onDone(response));
    return () => done.unsubscribe();
  }, [actor, onDone]);

  const { offers, chosen, expiresAt, sliceRule, sliceError } = state.context;
  const searching = state.matches("requesting") || state.matches("pricing");
  const confirming = state.matches("confirming");
  const priced = state.matches("priced") || confirming;
  const choice = offers.find((o) => o.reshop_offer_id === chosen);
  const search = () => {
    if (slice !== null) {
      if (sliceDate) send({ type: "exchange.search", dates: { departure_date: sliceDate, slice } });
      return;
    }
    if (!departure) return;
    send({
      type: "exchange.search",
      dates: { departure_date: departure, ...(inbound && returning ? { return_date: returning } : {}) },
    });
  };

  return (
    <AfterSalesDialog
      size={EXCHANGE_DIALOG_WIDTH}
      title={t("exchange.title", { locator })}
      opened={opened}
      onClose={onClose}
      dirty={
        sliceDirty ||
        departure !== dayOf(outbound?.departure_at) ||
        returning !== dayOf(inbound?.departure_at)
      }
      penalty={booking.fare.fare.penalty}
      rule="change"
      lead={t("exchange.lead")}
    >
      {flights.length > 1 ? (
        <Radio.Group
          label={t("exchange.slice.label")}
          value={slice === null ? "whole" : String(slice)}
          onChange={chooseSlice}
          data-testid="exchange-slice"
          error={sliceError ? te(sliceError as "slice_not_changeable") : undefined}
        >
          <Stack gap={4} mt={4}>
            {multiCity ? null : (
              <Radio value="whole" label={t("exchange.slice.whole")} disabled={searching || confirming} />
            )}
            {flights.map((flight, i) => (
              <Radio
                key={flight.id}
                value={String(i)}
                disabled={searching || confirming}
                label={t("exchange.slice.option", {
                  number: i + 1,
                  from: flight.segments[0]?.from.code ?? "",
                  to: flight.segments.at(-1)?.to.code ?? "",
                  day: formats.day(airportDay(flight.departure_at)),
                })}
              />
            ))}
          </Stack>
        </Radio.Group>
      ) : null}
      {slice !== null ? (
        <Group align="flex-end" gap="sm">
          <DateField
            label={t("exchange.slice.date", { number: slice + 1 })}
            value={sliceDate}
            onChange={(value) => setSliceDate(value)}
            w={220}
            disabled={searching || confirming}
          />
          <Button onClick={search} loading={searching} disabled={!sliceDate || confirming}>
            {t("exchange.search")}
          </Button>
        </Group>
      ) : (
        <Group align="flex-end" gap="sm">
          <DateField
            label={t("exchange.departure_date")}
            value={departure}
            onChange={(value) => setDeparture(value)}
            w={180}
            disabled={searching || confirming}
          />
          {inbound ? (
            <DateField
              label={t("exchange.return_date")}
              value={returning}
              onChange={(value) => setReturning(value)}
              w={180}
              disabled={searching || confirming}
            />
          ) : null}
          <Button onClick={search} loading={searching} disabled={!departure || confirming}>
            {t("exchange.search")}
          </Button>
        </Group>
      )}

      {priced ? (
        <Stack
          gap="xs"
          component="section"
          aria-label={t("exchange.offers_title")}
          data-testid="reshop-offers"
        >
          {sliceRule ? (
            <Text fz="sm" data-testid="exchange-slice-rule">
              {sliceRule.penalty.change_before_departure.allowed &&
              sliceRule.penalty.change_before_departure.fee.amount > 0
                ? t("exchange.slice.rule_fee", {
                    number: sliceRule.slice + 1,
                    brand: fareText.brand(sliceRule),
                    amount: formats.money(sliceRule.penalty.change_before_departure.fee),
                  })
                : t("exchange.slice.rule_free", {
                    number: sliceRule.slice + 1,
                    brand: fareText.brand(sliceRule),
                  })}
            </Text>
          ) : null}
          {offers.length === 0 ? (
            <Alert color="gray" variant="light" icon={<IconInfoCircle size={16} />}>
              {t("exchange.no_offers")}
            </Alert>
          ) : (
            <Radio.Group
              value={chosen}
              onChange={(offerId) => send({ type: "exchange.choose", offerId })}
              aria-label={t("exchange.offers_title")}
            >
              <FiguresTable
                label={t("exchange.offers_title")}
                columns={[
                  { title: t("exchange.columns.choose") },
                  { title: t("exchange.columns.flights") },
                  { title: t("exchange.columns.fare") },
                  { title: t("exchange.columns.new_price"), money: true },
                  { title: t("exchange.columns.difference"), money: true },
                  { title: t("exchange.columns.fee"), money: true },
                  { title: t("exchange.columns.markup"), money: true },
                  { title: t("exchange.columns.residual"), money: true },
                  { title: t("exchange.columns.total"), money: true },
                ]}
              >
                {offers.map((offer) => (
                  <Table.Tr key={offer.reshop_offer_id} data-testid="reshop-offer">
                    <Table.Td>
                      <Radio
                        value={offer.reshop_offer_id}
                        aria-label={t("exchange.choose_offer", {
                          time: formats.instant(offer.departure_at),
                        })}
                        disabled={confirming}
                      />
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }} data-testid="reshop-flights">
                      {offer.flights ? (
                        <OfferFlights flights={offer.flights} />
                      ) : (
                        formats.instant(offer.departure_at)
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text fz="sm">{fareText.brandName(offer.brand_name)}</Text>
                      {offer.losses ? <OfferLosses losses={offer.losses} /> : null}
                    </Table.Td>
                    <AmountCell money={offer.new_price} />
                    <AmountCell money={offer.fare_difference} />
                    <AmountCell money={offer.change_fee} />
                    <AmountCell money={offer.markup} />
                    <AmountCell money={offer.residual_value} />
                    <AmountCell money={offer.total_due} testId="reshop-total-due" strong />
                  </Table.Tr>
                ))}
              </FiguresTable>
            </Radio.Group>
          )}
          <Text fz="xs" c="dimmed">
            {t("exchange.residual_hint")}
          </Text>
          {expiresAt ? <ValidUntil at={expiresAt} text={(values) => t("exchange.expires", values)} /> : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => send({ type: "exchange.back" })} disabled={confirming}>
              {t("exchange.back")}
            </Button>
            {choice ? (
              <Button onClick={() => send({ type: "exchange.confirm" })} loading={confirming}>
                {t("exchange.confirm", { amount: formats.money(choice.total_due) })}
              </Button>
            ) : offers.length > 0 ? (
              <Button disabled>{t("exchange.choose_first")}</Button>
            ) : null}
          </Group>
        </Stack>
      ) : null}
    </AfterSalesDialog>
  );
}
