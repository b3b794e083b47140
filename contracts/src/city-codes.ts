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

/**
 * The main airports of their cities by passenger traffic (the world's busiest and each region's main ones): the
 * airport suggestions rank them before small fields of the same name (Heathrow before Biggin Hill).
 */
export const MAJOR_AIRPORTS: ReadonlySet<string> = new Set(
  (
    "ATL DFW DEN ORD LAX JFK LAS MCO MIA CLT SEA PHX EWR SFO IAH BOS FLL MSP LGA DTW PHL SLC BWI DCA IAD SAN TPA " +
    "YYZ YVR YUL MEX CUN GRU GIG EZE BOG LIM SCL LHR LGW CDG ORY AMS FRA MUC MAD BCN FCO MXP IST SAW ZRH VIE CPH " +
    "OSL ARN HEL DUB LIS BRU WAW KRK PRG BUD ATH OTP SOF KBP LWO ODS TLV DXB DOH AUH CAI JNB CPT NBO ADD LOS DEL " +
    "BOM BLR SIN BKK HKG PEK PKX PVG CAN ICN NRT HND KIX SYD MEL AKL KUL CGK MNL TPE BER HAM DUS GDN WRO RIX VNO " +
    "TLL MAN EDI NCE LYS GVA"
  ).split(" "),
);
