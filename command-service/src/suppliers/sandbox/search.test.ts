import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import {
  type SearchRequest,
  SearchRequest as SearchRequestSchema,
  type SupplierFare,
} from "@skyward/contracts/offers";
import { InvalidInput } from "@skyward/infra/http/errors";
import { OfferNotFound, SupplierRejected, SupplierUnavailable } from "../errors.ts";
import type { SupplierCall } from "../supplier.ts";
import { findAirline } from "./airlines.ts";
import { SandboxSupplier } from "./sandbox-supplier.ts";
import { SANDBOX_SCENARIOS } from "./scenarios.ts";

const NOW = new Date("2025-05-20T09:00:00Z");
const call = (currency = "UAH", now = NOW): SupplierCall => ({
  now,
  currency,
  credentials: { login: "agency", password: "secret" },
});
const request = (input: Record<string, unknown>): SearchRequest =>
  SearchRequestSchema.parse({ passengers: { adults: 1 }, ...input });
const search = (input: Record<string, unknown>, currency?: string) =>
  new SandboxSupplier().search(request(input), call(currency));

const minutesBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 60_000;
const allFares = (result: { origin_destinations: { fares: SupplierFare[] }[] }) =>
  result.origin_destinations.flatMap((od) => od.fares);

describe("sandbox search", () => {
  it("given the same request twice on two instances, when searched, then the results are identical", async () => {
    const input = {
      origin: "LWO",
      destination: "BCN",
      departure_date: "2025-06-01",
      return_date: "2025-06-08",
    };
    const first = await new SandboxSupplier().search(request(input), call());
    const second = await new SandboxSupplier().search(
      request(input),
      call("UAH", new Date("2025-05-21T13:00:00Z")),
    );
    expect(first.origin_destinations.length).toBeGreaterThan(3);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it("given KBP to WAW, when searched, then non-stop flights show Kyiv and Warsaw local times and a plausible duration", async () => {
    const result = await search({ origin: "KBP", destination: "WAW", departure_date: "2025-06-01" });
    const direct = result.origin_destinations.flatMap((od) => od.flights).filter((f) => f.stops === 0);
    expect(new Set(direct.map((f) => f.segments[0]?.carrier))).toEqual(new Set(["PS", "LO", "PQ"]));
    for (const flight of direct) {
      const [segment] = flight.segments;
      if (!segment) throw new Error("no segment");
      expect(segment.departure_at).toMatch(/^2025-06-01T\d{2}:\d{2}:00\+03:00$/);
      expect(segment.arrival_at).toMatch(/\+02:00$/);
      expect(segment.duration_minutes).toBeGreaterThanOrEqual(80);
      expect(segment.duration_minutes).toBeLessThanOrEqual(140);
      expect(minutesBetween(segment.departure_at, segment.arrival_at)).toBe(segment.duration_minutes);
      expect(segment.distance_km).toBeGreaterThan(680);
      expect(segment.distance_km).toBeLessThan(740);
      expect(segment.from).toMatchObject({ code: "KBP", city: "Kyiv" });
      expect(segment.to).toMatchObject({ code: "WAW", city: "Warsaw" });
    }
  });

  it("given a route with no shared carrier base, when searched, then one-stops connect over the carrier's own hub", async () => {
    const result = await search({ origin: "LWO", destination: "LIS", departure_date: "2025-06-01" });
    const oneStops = result.origin_destinations.flatMap((od) => od.flights).filter((f) => f.stops === 1);
    expect(oneStops.length).toBeGreaterThan(2);
    for (const flight of oneStops) {
      const [first, second] = flight.segments;
      if (!first || !second) throw new Error("a one-stop has two segments");
      expect(first.carrier).toBe(second.carrier);
      expect(findAirline(first.carrier)?.hubs).toContain(first.to.code);
      expect(second.from.code).toBe(first.to.code);
      const connection = minutesBetween(first.arrival_at, second.departure_at);
      expect(connection).toBeGreaterThanOrEqual(50);
      expect(connection).toBeLessThanOrEqual(360);
      expect(flight.connections).toEqual([{ airport: first.to.code, minutes: connection }]);
      expect(flight.duration_minutes).toBe(minutesBetween(first.departure_at, second.arrival_at));
    }
  });

  it("given a long haul, when searched, then the hub's gateway flight crosses the Atlantic with New York's offset", async () => {
    const result = await search({ origin: "KBP", destination: "JFK", departure_date: "2025-06-01" });
    const viaWarsaw = result.origin_destinations
      .flatMap((od) => od.flights)
      .find((f) => f.segments[0]?.carrier === "LO" && f.stops === 1);
    const transatlantic = viaWarsaw?.segments[1];
    expect(transatlantic?.from.code).toBe("WAW");
    expect(transatlantic?.arrival_at).toMatch(/-04:00$/);
    expect(transatlantic?.duration_minutes).toBeGreaterThan(8 * 60);
    expect(transatlantic?.duration_minutes).toBeLessThan(11 * 60);
  });

  it("given a return date, when searched, then each offer flies out and back on one carrier, back after out", async () => {
    const result = await search({
      origin: "KBP",
      destination: "WAW",
      departure_date: "2025-06-01",
      return_date: "2025-06-08",
    });
    expect(result.origin_destinations.length).toBeGreaterThan(0);
    for (const od of result.origin_destinations) {
      const [out, back] = od.flights;
      if (!out || !back) throw new Error("a round trip has two flights");
      expect([out.direction, back.direction]).toEqual(["outbound", "return"]);
      expect(out.segments[0]?.from.code).toBe("KBP");
      expect(out.segments.at(-1)?.to.code).toBe("WAW");
      expect(back.segments[0]?.from.code).toBe("WAW");
      expect(back.segments.at(-1)?.to.code).toBe("KBP");
      expect(back.departure_at.slice(0, 10)).toBe("2025-06-08");
      const carriers = new Set([...out.segments, ...back.segments].map((s) => s.carrier));
      expect(carriers).toEqual(new Set([od.fares[0]?.validating_carrier]));
      for (const fare of od.fares)
        expect(fare.fare_segments).toHaveLength(out.segments.length + back.segments.length);
    }
  });

  it("given a family with a child and an infant, when searched, then each type is priced and the totals add up", async () => {
    const result = await search({
      origin: "KBP",
      destination: "WAW",
      departure_date: "2025-06-01",
      passengers: { adults: 2, children: 1, infants: 1 },
    });
    for (const fare of allFares(result)) {
      const [adult, child, infant] = fare.price.passengers;
      expect([adult?.type, child?.type, infant?.type]).toEqual(["adult", "child", "infant"]);
      expect([adult?.count, child?.count, infant?.count]).toEqual([2, 1, 1]);
      const lowCost = findAirline(fare.validating_carrier)?.lowCost;
      if (lowCost) expect(child?.base_fare).toEqual(adult?.base_fare);
      else expect(child?.base_fare.amount).toBeLessThan(adult?.base_fare.amount ?? 0);
      expect(infant?.base_fare.amount).toBeLessThan(child?.base_fare.amount ?? 0);
      const total = fare.price.passengers.reduce((sum, p) => sum + p.total.amount * p.count, 0);
      expect(fare.price.total.amount).toBe(total);
      expect(fare.price.total.amount).toBe(fare.price.base_fare.amount + fare.price.taxes.amount);
    }
  });

  it("given economy, when searched, then light, standard and flex differ in price, bags and penalties", async () => {
    const result = await search({ origin: "KBP", destination: "WAW", departure_date: "2025-06-01" });
    const od = result.origin_destinations.find(
      (o) => o.fares.length === 3 && !findAirline(o.fares[0]?.validating_carrier ?? "")?.lowCost,
    );
    const [light, standard, flex] = od?.fares ?? [];
    if (!light || !standard || !flex) throw new Error("no network offer with three families");
    expect([light.family, standard.family, flex.family]).toEqual(["light", "standard", "flex"]);
    expect(light.price.total.amount).toBeLessThan(standard.price.total.amount);
    expect(standard.price.total.amount).toBeLessThan(flex.price.total.amount);
    expect(light.fare_segments[0]?.baggage.checked.pieces).toBe(0);
    expect(standard.fare_segments[0]?.baggage.checked).toEqual({ pieces: 1, weight_kg: 23 });
    expect(flex.fare_segments[0]?.baggage.checked).toEqual({ pieces: 2, weight_kg: 23 });
    expect(light.penalty.refund_before_departure).toEqual({ allowed: false });
    expect(light.penalty.change_before_departure).toEqual({ allowed: false });
    expect(standard.penalty.change_before_departure).toMatchObject({ allowed: true });
    expect(flex.penalty.refund_before_departure).toEqual({
      allowed: true,
      fee: { amount: 0, currency: "UAH" },
    });
  });

  it("given business class, when searched, then only network carriers sell it, in standard and flex", async () => {
    const result = await search({
      origin: "KBP",
      destination: "WAW",
      departure_date: "2025-06-01",
      cabin: "business",
    });
    expect(result.origin_destinations.length).toBeGreaterThan(0);
    for (const fare of allFares(result)) {
      expect(findAirline(fare.validating_carrier)?.lowCost).toBe(false);
      expect(["standard", "flex"]).toContain(fare.family);
      expect(fare.fare_segments.every((s) => s.cabin === "business")).toBe(true);
      expect(fare.fare_segments[0]?.baggage.checked).toEqual({ pieces: 2, weight_kg: 32 });
    }
  });

  it("given first class on a short route, when searched, then nothing is found", async () => {
    const result = await search({
      origin: "KBP",
      destination: "WAW",
      departure_date: "2025-06-01",
      cabin: "first",
    });
    expect(result.origin_destinations).toEqual([]);
  });

  it("given first class to Singapore, when searched, then the feeder flies business under the long-haul first", async () => {
    const result = await search({
      origin: "WAW",
      destination: "SIN",
      departure_date: "2025-06-01",
      cabin: "first",
    });
    const mixed = allFares(result).find((f) => f.fare_segments.length === 2);
    expect(mixed?.fare_segments.map((s) => s.cabin)).toEqual(["business", "first"]);
  });

  it("given two currencies, when searched, then UAH prices are the EUR prices at the fixed rate, filed amounts kept", async () => {
    const input = { origin: "KBP", destination: "WAW", departure_date: "2025-06-01" };
    const [eur, uah] = await Promise.all([search(input, "EUR"), search(input, "UAH")]);
    expect(uah.origin_destinations.map((od) => od.flights)).toEqual(
      eur.origin_destinations.map((od) => od.flights),
    );
    const eurFares = allFares(eur);
    allFares(uah).forEach((fare, i) => {
      const inEur = eurFares[i]?.price.total.amount ?? 0;
      expect(fare.price.total.currency).toBe("UAH");
      expect(Math.abs(fare.price.total.amount - inEur * 45)).toBeLessThanOrEqual(45 * 4);
      const { exchange_rate: toUah, ...filed } = fare.original_price;
      const { exchange_rate: toEur, ...filedForEur } = eurFares[i]?.original_price ?? fare.original_price;
      expect(filed).toEqual(filedForEur);
      expect(toUah).not.toBe(toEur);
      expect(fare.original_price.total.currency).toBe(findAirline(fare.validating_carrier)?.currency);
    });
    const lot = allFares(uah).find((f) => f.validating_carrier === "LO");
    expect(lot?.original_price.exchange_rate).toBe("10.465116");
  });

  it("given a carriers filter, when searched, then only those carriers fly", async () => {
    const result = await search({
      origin: "KBP",
      destination: "LIS",
      departure_date: "2025-06-01",
      carriers: ["lo"],
    });
    const carriers = new Set(
      result.origin_destinations.flatMap((od) => od.flights.flatMap((f) => f.segments.map((s) => s.carrier))),
    );
    expect(carriers).toEqual(new Set(["LO"]));
  });

  it("given a search on the day of departure, then flights leaving within two hours are not offered", async () => {
    const now = new Date("2025-06-01T08:00:00Z");
    const result = await new SandboxSupplier().search(
      request({ origin: "KBP", destination: "WAW", departure_date: "2025-06-01" }),
      call("UAH", now),
    );
    const all = await search({ origin: "KBP", destination: "WAW", departure_date: "2025-06-01" });
    const departures = result.origin_destinations.map((od) => Date.parse(od.flights[0]?.departure_at ?? ""));
    expect(Math.min(...departures)).toBeGreaterThanOrEqual(now.getTime() + 2 * 3_600_000);
    expect(result.origin_destinations.length).toBeLessThan(all.origin_destinations.length);
  });

  it("given ancillaries, then every segment sells a checked bag and low-cost segments a cabin bag", async () => {
    const result = await search({ origin: "KBP", destination: "WAW", departure_date: "2025-06-01" });
    for (const od of result.origin_destinations) {
      const lowCost = findAirline(od.fares[0]?.validating_carrier ?? "")?.lowCost;
      for (const segment of od.flights.flatMap((f) => f.segments)) {
        const items = od.ancillaries.filter((a) => a.segment_id === segment.id);
        expect(items.map((a) => a.type)).toEqual(lowCost ? ["checked_bag", "carry_on"] : ["checked_bag"]);
        for (const item of items) {
          expect(item.price.amount).toBeGreaterThan(0);
          expect(item.price.currency).toBe("UAH");
          expect(item.passenger_types).not.toContain("infant");
        }
      }
    }
  });

  it("given a fare id, when its details and rules are asked for, then the same fare comes back with ATPCO sections", async () => {
    const supplier = new SandboxSupplier();
    const result = await supplier.search(
      request({ origin: "KBP", destination: "WAW", departure_date: "2025-06-01" }),
      call(),
    );
    const od = result.origin_destinations[2];
    const fare = od?.fares.at(-1);
    if (!od || !fare) throw new Error("no fare");
    const details = await new SandboxSupplier().offerDetails({ fare_id: fare.fare_id }, call());
    expect(details.fare).toEqual(fare);
    expect(details.flights).toEqual(od.flights);
    expect(details.search_result_id).toBe(result.id);
    expect(details.origin_destination_id).toBe(od.id);
    const rules = await supplier.fareRules({ fare_id: fare.fare_id }, call());
    expect(rules.sections.map((s) => s.category)).toEqual([5, 16, 19, 31, 33]);
    expect(rules.penalty).toEqual(fare.penalty);
    await expect(supplier.offerDetails({ fare_id: `${result.id}-99-ST` }, call())).rejects.toThrow(
      OfferNotFound,
    );
    await expect(supplier.offerDetails({ fare_id: "garbage" }, call())).rejects.toThrow(OfferNotFound);
    await expect(supplier.offerDetails({ fare_id: fare.fare_id }, call("EUR"))).rejects.toThrow(
      SupplierRejected,
    );
  });

  it("given a search for ERR, then the supplier fails; for NAV, then nothing is found", async () => {
    const { searchFailure, noAvailability } = SANDBOX_SCENARIOS;
    await expect(
      search({ origin: "KBP", destination: searchFailure.airport, departure_date: "2025-06-01" }),
    ).rejects.toThrow(SupplierUnavailable);
    const empty = await search({
      origin: noAvailability.airport,
      destination: "IST",
      departure_date: "2025-06-01",
    });
    expect(empty.origin_destinations).toEqual([]);
    expect(empty.id).toMatch(/^SBX1-NAVIST-/);
  });

  it("given a round trip to MNY, then 300 offers fly to London and back, each fare found again by its id; to LON, still 25", async () => {
    const { manyOffers } = SANDBOX_SCENARIOS;
    const trip = { departure_date: "2025-06-10", return_date: "2025-06-17" };
    const supplier = new SandboxSupplier();
    const many = await supplier.search(
      request({ origin: "KBP", destination: manyOffers.airport, ...trip }),
      call(),
    );
    expect(many.origin_destinations).toHaveLength(manyOffers.maxOffers);
    expect(many.id).toMatch(/^SBX1-KBPMNY-/);
    const london = new Set(["LHR", "LGW", "STN", "LTN", "LCY", "SEN"]);
    for (const od of many.origin_destinations) {
      const [out, back] = od.flights;
      expect(london.has(out?.segments.at(-1)?.to.code ?? "")).toBe(true);
      expect(london.has(back?.segments[0]?.from.code ?? "")).toBe(true);
    }
    const last = many.origin_destinations.at(-1)?.fares[0];
    if (!last) throw new Error("no fare");
    const details = await new SandboxSupplier().offerDetails({ fare_id: last.fare_id }, call());
    expect(details.fare.fare_id).toBe(last.fare_id);

    const normal = await search({ origin: "KBP", destination: "LON", ...trip });
    expect(normal.origin_destinations).toHaveLength(25);
  });

  it("given dates outside the sales window or an unknown airport, then the search names the bad field", async () => {
    const problem = async (input: Record<string, unknown>) => {
      try {
        await search(input);
      } catch (error) {
        if (error instanceof InvalidInput) return error.problems.map((p) => p.pointer);
        throw error;
      }
      throw new Error("expected InvalidInput");
    };
    expect(await problem({ origin: "KBP", destination: "WAW", departure_date: "2025-05-19" })).toEqual([
      "/departure_date",
    ]);
    expect(
      await problem({
        origin: "KBP",
        destination: "WAW",
        departure_date: "2025-06-01",
        return_date: "2026-06-01",
      }),
    ).toEqual(["/return_date"]);
    expect(await problem({ origin: "QQQ", destination: "WAW", departure_date: "2025-06-01" })).toEqual([
      "/origin",
    ]);
  });

  it("given credentials with the password 'invalid', then the check answers inactive and calls fail", async () => {
    const supplier = new SandboxSupplier();
    const bad = { login: "agency", password: SANDBOX_SCENARIOS.invalidCredentials.password };
    expect(await supplier.checkCredentials(bad, { now: NOW })).toMatchObject({ active: false });
    expect(
      await supplier.checkCredentials({ login: "agency", password: "secret" }, { now: NOW }),
    ).toMatchObject({
      active: true,
    });
    await expect(
      supplier.search(request({ origin: "KBP", destination: "WAW", departure_date: "2025-06-01" }), {
        ...call(),
        credentials: bad,
      }),
    ).rejects.toMatchObject({ code: "invalid_credentials" });
    await expect(
      search({ origin: "KBP", destination: "WAW", departure_date: "2025-06-01" }, "JPY"),
    ).rejects.toMatchObject({
      code: "unsupported_currency",
    });
  });
});

describe("SCENARIOS.md", () => {
  it("given the scenario constant, then the tester's document names every input it reacts to", () => {
    const doc = readFileSync(new URL("./SCENARIOS.md", import.meta.url), "utf8");
    for (const scenario of Object.values(SANDBOX_SCENARIOS)) {
      const input =
        "airport" in scenario
          ? scenario.airport
          : "lastName" in scenario
            ? scenario.lastName
            : scenario.password;
      expect(doc).toContain(`\`${input}\``);
    }
  });
});
