import { z } from "zod";

/**
 * What a passenger brings to a flight beyond their name and document (issue 23, item 5): a loyalty number of a
 * carrier's programme and special-service requests (IATA SSR codes). Kept on travellers and sent with bookings.
 */

/** Airline alliances, for the loyalty numbers a carrier accepts (its own, or a partner's in the same alliance). */
export const Alliance = z.enum(["star_alliance", "skyteam", "oneworld"]);
export type Alliance = z.infer<typeof Alliance>;

/** The carriers whose loyalty numbers we keep, with the alliance each belongs to (null: none). */
export const LOYALTY_CARRIERS: Readonly<Record<string, Alliance | null>> = {
  A3: "star_alliance",
  AA: "oneworld",
  AC: "star_alliance",
  AF: "skyteam",
  AY: "oneworld",
  AZ: "star_alliance",
  BA: "oneworld",
  BT: null,
  DL: "skyteam",
  EI: null,
  EK: null,
  EW: null,
  EY: null,
  FZ: null,
  G9: null,
  HV: null,
  HY: null,
  IB: "oneworld",
  J2: null,
  JU: null,
  KC: null,
  KL: "skyteam",
  LH: "star_alliance",
  LO: "star_alliance",
  LS: null,
  LX: "star_alliance",
  LY: null,
  OS: "star_alliance",
  PC: null,
  PQ: null,
  PS: null,
  QR: "oneworld",
  RO: "skyteam",
  SK: "skyteam",
  SN: "star_alliance",
  SQ: "star_alliance",
  TK: "star_alliance",
  TP: "star_alliance",
  UA: "star_alliance",
  VY: null,
};

/** Whether a carrier (the flight's marketing carrier) accepts a loyalty number of `programme`: its own or an alliance partner's. */
export function loyaltyAccepted(carrier: string, programme: string): boolean {
  if (carrier === programme) return true;
  const alliance = LOYALTY_CARRIERS[carrier];
  return alliance != null && LOYALTY_CARRIERS[programme] === alliance;
}

const ALLIANCE_NAMES: Record<Alliance, string> = {
  star_alliance: "Star Alliance",
  skyteam: "SkyTeam",
  oneworld: "oneworld",
};
const allianceOf = (carrier: string) => {
  const alliance = LOYALTY_CARRIERS[carrier];
  return alliance ? ALLIANCE_NAMES[alliance] : "no alliance";
};

/**
 * Why the flights' marketing carriers refuse a loyalty number of `programme` (each must accept it: it goes with
 * every flight), or null when they all take it.
 */
export function loyaltyRefusal(marketingCarriers: readonly string[], programme: string): string | null {
  const refusing = [...new Set(marketingCarriers)].find((carrier) => !loyaltyAccepted(carrier, programme));
  return refusing
    ? `${refusing} does not accept ${programme} loyalty numbers: it takes its own and its alliance's (${allianceOf(refusing)}); ${programme} is in ${allianceOf(programme)}`
    : null;
}

export const LoyaltyNumber = z.object({
  carrier: z
    .string()
    .trim()
    .toUpperCase()
    .refine((code) => code in LOYALTY_CARRIERS, "is not a carrier we know"),
  number: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{4,20}$/, "must be 4-20 letters or digits"),
});
export type LoyaltyNumber = z.infer<typeof LoyaltyNumber>;

/** IATA special-meal codes. */
export const MEAL_SSRS = [
  "AVML",
  "BBML",
  "BLML",
  "CHML",
  "DBML",
  "FPML",
  "GFML",
  "HNML",
  "KSML",
  "LCML",
  "LFML",
  "LSML",
  "MOML",
  "NLML",
  "RVML",
  "SFML",
  "VGML",
  "VJML",
  "VLML",
  "VOML",
] as const;
/** IATA assistance codes: wheelchairs, sight, hearing, an unaccompanied minor, a passenger needing help. */
export const ASSISTANCE_SSRS = ["WCHR", "WCHS", "WCHC", "BLND", "DEAF", "DPNA", "MAAS", "UMNR"] as const;
export const SsrCode = z.enum([...MEAL_SSRS, ...ASSISTANCE_SSRS], {
  error: "must be an IATA special-service code such as VGML or WCHR",
});
export type SsrCode = z.infer<typeof SsrCode>;

/** A passenger's loyalty numbers (one per carrier) and standing SSRs (at most one meal). */
export const unique = <T>(values: readonly T[]) => new Set(values).size === values.length;
export const LoyaltyNumbers = z
  .array(LoyaltyNumber)
  .max(10)
  .refine((numbers) => unique(numbers.map((n) => n.carrier)), "must name each carrier once");
export const SsrCodes = z
  .array(SsrCode)
  .max(6)
  .refine(unique, "must name each code once")
  .refine(
    (codes) => codes.filter((c) => (MEAL_SSRS as readonly string[]).includes(c)).length <= 1,
    "may hold one meal",
  );

/** One passenger's loyalty number (null: none) and SSRs on a booking, by the passenger's index. */
export const PassengerServices = z.object({
  index: z.number().int().min(0).max(8),
  loyalty: LoyaltyNumber.nullable(),
  ssrs: SsrCodes,
});
export type PassengerServices = z.infer<typeof PassengerServices>;
