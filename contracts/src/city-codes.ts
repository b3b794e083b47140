/**
 * IATA metropolitan area (city) codes and their airports, the main airport first. A search for a city code searches
 * all of them. Only codes that are not also an airport's own code are listed (WAW, OSL or BER name an airport in the
 * airport data, and a search for them keeps meaning that airport).
 */
export const CITY_AIRPORTS: Readonly<Record<string, readonly string[]>> = {
  BJS: ["PEK", "PKX"],
  BUE: ["EZE", "AEP"],
  BUH: ["OTP", "BBU"],
  CHI: ["ORD", "MDW"],
  JKT: ["CGK", "HLP"],
  LON: ["LHR", "LGW", "STN", "LTN", "LCY", "SEN"],
  MIL: ["MXP", "LIN", "BGY"],
  MOW: ["SVO", "DME", "VKO"],
  NYC: ["JFK", "EWR", "LGA"],
  OSA: ["KIX", "ITM", "UKB"],
  PAR: ["CDG", "ORY", "BVA"],
  REK: ["KEF", "RKV"],
  RIO: ["GIG", "SDU"],
  ROM: ["FCO", "CIA"],
  SAO: ["GRU", "CGH", "VCP"],
  SEL: ["ICN", "GMP"],
  STO: ["ARN", "BMA", "NYO"],
  TYO: ["HND", "NRT"],
  WAS: ["IAD", "DCA", "BWI"],
  YMQ: ["YUL", "YMX"],
  YTO: ["YYZ", "YTZ", "YHM"],
};

/** The airports a code names: a city code's airports, or the airport itself. */
export const airportsOf = (code: string): readonly string[] => CITY_AIRPORTS[code] ?? [code];

export const isCityCode = (code: string): boolean => code in CITY_AIRPORTS;

/** The city code an airport belongs to, if any. */
export function cityCodeOf(airport: string): string | undefined {
  for (const [city, airports] of Object.entries(CITY_AIRPORTS)) if (airports.includes(airport)) return city;
  return undefined;
}
