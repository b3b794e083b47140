import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import type { BookingDetails } from "@skyward/contracts/bookings";
import type { Flight } from "@skyward/contracts/offers";
import type { ScheduleChangeChoice } from "@skyward/contracts/supplier";
import { IconClockExclamation } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { notify } from "../../../lib/notifications.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { answerScheduleChange } from "../api/schedule-change.ts";

/** A flight as the ticket shows it: flight numbers and local times at each airport. */
const flightLine = (flight: Flight) =>
  flight.segments
    .map(
      (s) =>
        `${s.carrier}${s.flight_number} ${s.from.code} ${s.departure_at.slice(0, 16).replace("T", " ")} → ${s.to.code} ${s.arrival_at.slice(11, 16)}`,
    )
    .join(", ");

/**
 * The airline's schedule change on the booking page (issue 24.3): old → new flights, what the agent may answer
 * (the server's `choices`) and by when; once answered, the answer.
 */
export function ScheduleChangePanel({ booking }: { booking: BookingDetails }) {
  const { t } = useTranslation("after-sales");
  const formats = useFormats();
  const queryClient = useQueryClient();
  const change = booking.schedule_change;
  const { locator } = booking;
  const answer = useMutation({
    mutationFn: (body: { choice: ScheduleChangeChoice; option_id?: string }) =>
      answerScheduleChange(locator, { change_id: change?.change_id ?? "", ...body }),
    onSuccess: (done) => {
      notify({
        type: "success",
        text: done.credited
          ? t("schedule_change.done_refund", { locator, amount: formats.money(done.credited) })
          : t(`schedule_change.done.${done.choice}`, { locator }),
      });
      void Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.booking(locator) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.bookingLists }),
        queryClient.invalidateQueries({ queryKey: queryKeys.balances }),
      ]);
    },
  });
  if (!change) return null;
  const waiting = change.answer === null;
  const pairs = change.old_flights.map((old, i) => ({ old, next: change.new_flights[i] }));
  return (
    <section aria-label={t("schedule_change.label")} data-testid="schedule-change">
      <Alert
        color={waiting ? "orange" : "gray"}
        icon={<IconClockExclamation size={18} />}
        title={t(`schedule_change.title.${change.kind}`)}
      >
        <Stack gap={6}>
          {pairs.map(({ old, next }) =>
            next && flightLine(old) !== flightLine(next) ? (
              <Stack key={old.id} gap={0}>
                <Text fz="sm" td="line-through" c="dimmed" data-testid="schedule-change-old">
                  {flightLine(old)}
                </Text>
                <Text fz="sm" fw={600} data-testid="schedule-change-new">
                  → {flightLine(next)}
                </Text>
              </Stack>
            ) : null,
          )}
          {waiting ? (
            <>
              <Text fz="sm" data-testid="schedule-change-deadline">
                {t("schedule_change.respond_by", { at: formats.instant(change.respond_by) })}
              </Text>
              <Group gap="xs">
                {change.choices.includes("accept") ? (
                  <Button
                    size="xs"
                    loading={answer.isPending}
                    onClick={() => answer.mutate({ choice: "accept" })}
                  >
                    {t("schedule_change.accept")}
                  </Button>
                ) : null}
                {change.choices.includes("exchange")
                  ? change.alternatives.map((option) => (
                      <Button
                        key={option.option_id}
                        size="xs"
                        variant="default"
                        loading={answer.isPending}
                        onClick={() => answer.mutate({ choice: "exchange", option_id: option.option_id })}
                      >
                        {t("schedule_change.exchange_to", {
                          flight: option.flights.map(flightLine).join(" · "),
                        })}
                      </Button>
                    ))
                  : null}
                {change.choices.includes("refund") ? (
                  <Button
                    size="xs"
                    variant="default"
                    color="red"
                    loading={answer.isPending}
                    onClick={() => answer.mutate({ choice: "refund" })}
                  >
                    {t("schedule_change.refund")}
                  </Button>
                ) : null}
              </Group>
            </>
          ) : (
            <Text fz="sm" data-testid="schedule-change-answer">
              {t(`schedule_change.answered.${change.answer ?? "accept"}`)}
            </Text>
          )}
        </Stack>
      </Alert>
    </section>
  );
}
