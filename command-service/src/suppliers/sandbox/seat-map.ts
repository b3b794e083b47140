import type { Seat, SeatMap, SeatZone } from "@skyward/contracts/ancillaries";
import type { Money } from "@skyward/contracts/money";
import type { Segment } from "@skyward/contracts/offers";
import { seeded } from "./random.ts";

/** A cabin layout: columns left to right ("" is an aisle), how many rows, and the rows at the emergency exits. */
interface Layout {
  columns: readonly string[];
  rows: number;
  exitRows: readonly number[];
}

const WIDE_BODY = /^(33|34|35|38|74|76|77|78)/;
const REGIONAL = /^(E|CR|AT|DH|22)/;

/** The economy cabin of the aircraft type: 3-3-3 on wide bodies, 2-2 on regional types, 3-3 otherwise. */
function layoutOf(equipment: string): Layout {
  if (WIDE_BODY.test(equipment))
    return { columns: ["A", "B", "C", "", "D", "E", "F", "", "H", "J", "K"], rows: 40, exitRows: [20, 21] };
  if (REGIONAL.test(equipment)) return { columns: ["A", "C", "", "D", "F"], rows: 20, exitRows: [10] };
  return { columns: ["A", "B", "C", "", "D", "E", "F"], rows: 30, exitRows: [12, 13] };
}

/** The first rows sell as "front" seats; exit rows as extra legroom. */
const FRONT_ROWS = 3;
/** About this share of seats is already taken by other travellers, the same on every call. */
const OCCUPIED_SHARE = 0.4;

export function seatZone(layout: Layout, row: number): SeatZone {
  if (row <= FRONT_ROWS) return "front";
  if (layout.exitRows.includes(row)) return "extra_legroom";
  return "standard";
}

export const seatAncillaryId = (segmentId: string, zone: SeatZone) =>
  `SEAT-${zone.toUpperCase()}-${segmentId}`;

/**
 * The seat map of a segment, deterministic per flight: the same seats are occupied in every call and process.
 * `prices` are the segment's seat items by zone; `held` the seats this booking's passengers hold (by index).
 */
export function seatMap(
  segment: Segment,
  prices: ReadonlyMap<SeatZone, Money>,
  held: ReadonlyMap<string, number>,
): SeatMap {
  const layout = layoutOf(segment.equipment.code);
  const rows = Array.from({ length: layout.rows }, (_, r) => {
    const row = r + 1;
    const zone = seatZone(layout, row);
    const seats: Seat[] = layout.columns.flatMap((column, c) => {
      if (column === "") return [];
      const seat = `${row}${column}`;
      const price = prices.get(zone) ?? null;
      const holder = held.get(seat);
      const occupied =
        holder !== undefined ||
        seeded("seat", segment.id, segment.flight_number, seat).next() < OCCUPIED_SHARE;
      const status = occupied ? "occupied" : price && price.amount > 0 ? "paid" : "free";
      return [
        {
          seat,
          column,
          status,
          zone,
          ancillary_id: occupied || !price ? null : seatAncillaryId(segment.id, zone),
          price: occupied ? null : price,
          window: c === 0 || c === layout.columns.length - 1,
          aisle: layout.columns[c - 1] === "" || layout.columns[c + 1] === "",
          passenger_index: holder ?? null,
        },
      ];
    });
    return { row, exit: layout.exitRows.includes(row), seats };
  });
  return {
    segment_id: segment.id,
    flight: `${segment.carrier}${segment.flight_number}`,
    aircraft: segment.equipment.name,
    cabin: segment.cabin,
    columns: [...layout.columns],
    rows,
  };
}

/** Whether a seat can be taken with this item: it exists, is not occupied, and belongs to the item's zone. */
export function seatOnMap(map: SeatMap, seat: string): Seat | null {
  for (const row of map.rows) for (const s of row.seats) if (s.seat === seat) return s;
  return null;
}
