import { Box, Button, Group, Loader, NativeSelect, Stack, Text, Title } from "@mantine/core";
import type { Seat, SeatMap } from "@skyward/contracts/ancillaries";
import type { BookingDetails } from "@skyward/contracts/bookings";
import type { Cabin } from "@skyward/contracts/offers";
import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { segmentLabel } from "../../../components/travel/ancillary-name.ts";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { Modal } from "../../../components/ui/modal.tsx";
import { notifyApiError } from "../../../lib/api-client.ts";
import { notify } from "../../../lib/notifications.ts";
import { seatMapQueryOptions, useAddAncillaries } from "../api/ancillaries.ts";

const MOVES: Record<string, [number, number]> = {
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
};

/**
 * The seat map of one segment: each seat a button named with its number and status or price; arrow keys move
 * between seats (one tab stop for the whole cabin), Enter or Space picks a free one.
 */
function SeatGrid({
  map,
  selected,
  onPick,
  passengerName,
}: {
  map: SeatMap;
  selected: string | null;
  onPick: (seat: Seat) => void;
  passengerName: (index: number) => string;
}) {
  const { t } = useTranslation("ancillaries");
  const formats = useFormats();
  const grid = map.rows.map((row) => row.seats);
  const first = grid.flat().find((s) => s.status !== "occupied")?.seat ?? grid[0]?.[0]?.seat ?? "";
  const [focused, setFocused] = useState(selected ?? first);
  const buttons = useRef(new Map<string, HTMLButtonElement>());

  const label = (seat: Seat) =>
    seat.passenger_index !== null
      ? t("seats.label_yours", { seat: seat.seat, passenger: passengerName(seat.passenger_index) })
      : seat.status === "occupied"
        ? t("seats.label_occupied", { seat: seat.seat })
        : seat.status === "paid" && seat.price
          ? t("seats.label_paid", { seat: seat.seat, amount: formats.money(seat.price) })
          : t("seats.label_free", { seat: seat.seat });

  const move = (event: KeyboardEvent, r: number, c: number) => {
    const step = MOVES[event.key];
    if (!step) return;
    event.preventDefault();
    const row = Math.min(Math.max(r + step[0], 0), grid.length - 1);
    const seats = grid[row] ?? [];
    const next = seats[Math.min(Math.max(c + step[1], 0), seats.length - 1)];
    if (!next) return;
    setFocused(next.seat);
    buttons.current.get(next.seat)?.focus();
  };

  return (
    <Box role="group" aria-label={t("seats.cabin", { flight: map.flight })} style={{ overflowX: "auto" }}>
      <Stack gap={4}>
        {map.rows.map((row, r) => {
          let c = -1;
          return (
            <Group key={row.row} gap={4} wrap="nowrap" aria-label={t("seats.row", { row: row.row })}>
              <Text fz="xs" w={24} ta="right" c="dimmed" aria-hidden>
                {row.row}
              </Text>
              {map.columns.map((column, i) => {
                if (column === "")
                  return <Box key={`aisle-after-${map.columns[i - 1]}`} w={16} aria-hidden />;
                const seat = row.seats.find((s) => s.column === column);
                if (!seat) return <Box key={column} w={36} aria-hidden />;
                c++;
                const index = c;
                const taken = seat.status === "occupied";
                const isSelected = seat.seat === selected;
                return (
                  <Button
                    key={seat.seat}
                    ref={(el) => {
                      if (el) buttons.current.set(seat.seat, el);
                      else buttons.current.delete(seat.seat);
                    }}
                    size="compact-xs"
                    w={36}
                    px={0}
                    variant={
                      isSelected ? "filled" : taken ? "filled" : seat.status === "paid" ? "light" : "default"
                    }
                    color={taken && !isSelected ? "gray.7" : "blue"}
                    aria-label={label(seat)}
                    aria-pressed={isSelected}
                    aria-disabled={taken || undefined}
                    tabIndex={seat.seat === focused ? 0 : -1}
                    onFocus={() => setFocused(seat.seat)}
                    onKeyDown={(event) => move(event, r, index)}
                    onClick={() => {
                      if (!taken) onPick(seat);
                    }}
                  >
                    {taken ? "×" : column}
                  </Button>
                );
              })}
              {row.exit ? (
                <Text fz={10} c="dimmed">
                  {t("seats.exit")}
                </Text>
              ) : null}
            </Group>
          );
        })}
      </Stack>
    </Box>
  );
}

/** Pick a seat per passenger and segment from the airline's seat map, bought at once (an EMD after issue). */
export function SeatMapPicker({ booking, onClose }: { booking: BookingDetails; onClose: () => void }) {
  const { t } = useTranslation("ancillaries");
  const formats = useFormats();
  const segments = booking.fare.flights.flatMap((f) => f.segments);
  const seated = booking.passengers.flatMap((p, i) => (p.type === "infant" ? [] : [i]));
  const [segmentId, setSegmentId] = useState(segments[0]?.id ?? "");
  const [passenger, setPassenger] = useState(seated[0] ?? 0);
  const [seat, setSeat] = useState<Seat | null>(null);
  // Demo bookings too: the server shows them the fare's cabin.
  const map = useQuery(seatMapQueryOptions(booking.locator, segmentId));
  const add = useAddAncillaries(booking.locator);
  const passengerName = (i: number) => {
    const p = booking.passengers[i];
    return p ? `${p.first_name} ${p.last_name}` : String(i + 1);
  };

  const submit = () => {
    if (!seat?.ancillary_id) return;
    add.mutate([{ ancillary_id: seat.ancillary_id, passenger_index: passenger, seat: seat.seat }], {
      onSuccess: (response) => {
        notify({
          type: "success",
          text:
            booking.status === "held"
              ? t("added_held", { locator: booking.locator })
              : response.async_emd_issue
                ? t("added_pending", { locator: booking.locator })
                : t("seats.taken_notice", { seat: seat.seat, locator: booking.locator }),
        });
        setSeat(null);
      },
      onError: notifyApiError,
    });
  };

  return (
    <Modal
      opened
      closeButtonProps={{ "aria-label": t("close", { ns: "common" }) }}
      onClose={onClose}
      title={
        <Title order={2} fz={16}>
          {t("seats.title")}
        </Title>
      }
      size="xl"
    >
      <Stack gap="md">
        <Group grow>
          <NativeSelect
            label={t("seats.flight")}
            value={segmentId}
            onChange={(e) => {
              setSegmentId(e.currentTarget.value);
              setSeat(null);
            }}
            data={segments.map((s) => ({ value: s.id, label: segmentLabel(s) }))}
          />
          <NativeSelect
            label={t("seats.passenger")}
            value={String(passenger)}
            onChange={(e) => setPassenger(Number(e.currentTarget.value))}
            data={seated.map((i) => ({ value: String(i), label: passengerName(i) }))}
          />
        </Group>
        {map.isPending ? (
          <Loader size="sm" aria-label={t("picker.loading")} />
        ) : map.data ? (
          <>
            <Text fz="xs" c="dimmed">
              {t("seats.aircraft", {
                aircraft: map.data.aircraft,
                cabin: t(`cabins.${map.data.cabin as Cabin}`),
              })}{" "}
              · {t("seats.legend")}
            </Text>
            <SeatGrid
              key={segmentId}
              map={map.data}
              selected={seat?.seat ?? null}
              onPick={setSeat}
              passengerName={passengerName}
            />
          </>
        ) : null}
        <Group justify="space-between">
          <Text fw={650} aria-live="polite">
            {seat
              ? t("seats.selected", {
                  seat: seat.seat,
                  amount: seat.price && seat.price.amount > 0 ? formats.money(seat.price) : t("seats.free"),
                })
              : t("seats.pick")}
          </Text>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {t("back")}
            </Button>
            <Button onClick={submit} disabled={!seat} loading={add.isPending}>
              {seat ? t("seats.confirm", { seat: seat.seat }) : t("seats.confirm_none")}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
