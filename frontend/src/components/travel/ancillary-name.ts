import type { AncillaryKind, SeatZone } from "@skyward/contracts/ancillaries";
import type { TFunction } from "i18next";

/** An ancillary's name in the interface language, from its kind and weight or zone (the airline's title is English). */
export function ancillaryName(
  t: TFunction<"ancillaries">,
  item: { type: AncillaryKind; weight_kg: number | null; seat_zone?: SeatZone | null },
): string {
  switch (item.type) {
    case "checked_bag":
      return t("names.checked_bag", { kg: item.weight_kg ?? 23 });
    case "carry_on":
      return t("names.carry_on", { kg: item.weight_kg ?? 10 });
    case "seat":
      return t(`names.seat.${item.seat_zone ?? "standard"}`);
  }
}

/** A segment as the agent reads it: carrier and number, from and to. */
export const segmentLabel = (s: {
  carrier: string;
  flight_number: string;
  from: { code: string };
  to: { code: string };
}) => `${s.carrier}${s.flight_number} ${s.from.code}–${s.to.code}`;
