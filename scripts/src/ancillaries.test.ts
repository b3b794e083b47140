import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { bookingPage, holdFamily, issuedFamily, startAfterSalesApp } from "./testing/after-sales.ts";
import {
  addAncillaries,
  catalogue,
  firstBag,
  firstSegment,
  refundEmd,
  seatMap,
  seatOf,
} from "./testing/ancillaries.ts";
import { balanceFromEvents, inDays, moneyOf } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import type { TestApp } from "./testing/test-app.ts";

/**
 * Ancillaries over real HTTP and PostgreSQL: catalogues priced for the agent, bags added before issue (paid with the
 * tickets) and after issue (EMDs charged to the balance), seat maps and paid seats, EMD refunds credited once,
 * scripted failures, asynchronous EMDs confirmed by the job, other tenants, and hostile input.
 */

let t: TestApp;
let agent: HttpClient;
let companyId: string;

beforeAll(async () => {
  ({ t, agent, companyId } = await startAfterSalesApp());
}, 180_000);
afterAll(() => t?.stop());

const EMD = /^\d{13}$/;

describe("catalogues", () => {
  it("when an offer's ancillaries are asked by type, then bags, cabin bags and seats come per segment at the agent's price", async () => {
    const search = await agent.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: inDays(21),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: ["PS", "LO"],
    });
    const fare = search.body.result.origin_destinations[0].fares[0];
    const query = `search_result_id=${search.body.result.id}`;
    const bags = await agent.get(`/offers/${fare.fare_id}/ancillaries?type=bag&${query}`);
    expect(bags.status).toBe(200);
    expect(bags.body.data.length).toBeGreaterThan(0);
    for (const item of bags.body.data) {
      expect(item).toMatchObject({ type: "checked_bag", seat_zone: null, price: { currency: "UAH" } });
      expect(item.price.amount).toBe(
        item.supplier_price.amount + item.agency_markup.amount + item.company_markup.amount,
      );
    }
    const seats = await agent.get(`/offers/${fare.fare_id}/ancillaries?type=seat&${query}`);
    expect(seats.body.data.map((s: Json) => s.seat_zone)).toEqual(
      expect.arrayContaining(["standard", "extra_legroom", "front"]),
    );
    expect((await agent.get(`/offers/${fare.fare_id}/ancillaries?type=meal`)).status).toBe(422);
  });

  it("when a booking's catalogue and seat map are asked, then each segment has its cabin with free, paid and occupied seats, the same on every call", async () => {
    const locator = await holdFamily(agent, "standard");
    const all = await catalogue(agent, locator);
    expect(new Set(all.body.data.map((i: Json) => i.type))).toEqual(new Set(["checked_bag", "seat"]));
    const segment = await firstSegment(agent, locator);
    const map = await seatMap(agent, locator, segment);
    expect(map.status).toBe(200);
    expect(map.body.data).toMatchObject({ segment_id: segment, columns: expect.arrayContaining(["A", ""]) });
    const statuses = new Set(
      (map.body.data.rows as Json[]).flatMap((r) => (r.seats as Json[]).map((s) => s.status)),
    );
    expect(statuses).toEqual(new Set(["free", "paid", "occupied"]));
    expect((await seatMap(agent, locator, segment)).body).toEqual(map.body);
    expect((await seatMap(agent, locator, "XX999-20990101")).status).toBe(422);
  });
});

describe("bags on a held booking", () => {
  it("when a bag is added before issue, then nothing is charged until the issue, which charges tickets and bag together and issues its EMD", async () => {
    const locator = await holdFamily(agent, "standard");
    const bag = await firstBag(agent, locator);
    const added = await addAncillaries(agent, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
    ]);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ status: "held", charged: null, total: bag.price });
    expect(added.body.lines).toEqual([expect.objectContaining({ status: "held", emd_number: null })]);
    expect(await moneyOf(t.db, locator)).toEqual([]);
    const issued = await agent.post("/bookings/issue", { locator });
    expect(issued.status).toBe(201);
    const page = await bookingPage(agent, locator, issued.body.position);
    const charged = (await moneyOf(t.db, locator)).filter((m) => m.type === "BalanceCharged");
    expect(charged).toEqual([
      { type: "BalanceCharged", reason: "issue", amount: page.body.data.price.amount + bag.price.amount },
    ]);
    const [line] = page.body.data.ancillaries;
    expect(line).toMatchObject({ status: "issued", type: "checked_bag", price: bag.price });
    expect(line.emd_number).toMatch(EMD);
    expect(page.body.data.async_emd_issue).toBe(false);
  });

  it("when a bag and a paid seat are added to a held booking, then the booking page's issue action, its split and the issue answer show fare + extras: what the balance is charged", async () => {
    const locator = await holdFamily(agent, "standard");
    const bag = await firstBag(agent, locator);
    const segment = await firstSegment(agent, locator);
    const seat = await seatOf(agent, locator, segment, "paid");
    const added = await addAncillaries(agent, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
      { ancillary_id: seat.ancillary_id, passenger_index: 0, seat: seat.seat },
    ]);
    expect(added.status).toBe(201);
    const extras = bag.price.amount + seat.price.amount;
    expect(seat.price.amount).toBeGreaterThan(0);
    const held = (await bookingPage(agent, locator, added.body.position)).body.data;
    const fare = held.price.amount;
    const toCharge = { amount: fare + extras, currency: "UAH" };
    // `price` stays the fare as booked; the split and the action carry what issue takes.
    expect(held.issue_charge).toEqual({
      fare: held.price,
      extras: { amount: extras, currency: "UAH" },
      total: toCharge,
    });
    expect(held.issue_paid_by).toBe("balance");
    const issueAction = held.actions.find((a: Json) => a.action === "issue");
    expect(issueAction).toMatchObject({ allowed: true, money: toCharge });

    const before = await balanceFromEvents(t.db, companyId);
    const issued = await agent.post("/bookings/issue", { locator });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({
      status: "issued",
      charge: held.issue_charge,
      charged: toCharge,
    });
    expect(await balanceFromEvents(t.db, companyId)).toBe(before - toCharge.amount);
    const after = (await bookingPage(agent, locator, issued.body.position)).body.data;
    expect(after.price).toEqual(held.price);
    expect(after.issue_charge).toBeNull();
    expect(after.issue_paid_by).toBeNull();
  });
});

describe("EMDs after issue", () => {
  it("when a bag is bought on issued tickets, then its EMD has a 13-digit number, the balance pays its price, and the booking page shows it", async () => {
    const locator = await issuedFamily(agent, "standard");
    const bag = await firstBag(agent, locator);
    const before = await balanceFromEvents(t.db, companyId);
    const added = await addAncillaries(agent, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
    ]);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ status: "issued", charged: bag.price, async_emd_issue: false });
    const [line] = added.body.lines;
    expect(line.emd_number).toMatch(EMD);
    expect(await balanceFromEvents(t.db, companyId)).toBe(before - bag.price.amount);
    const page = await bookingPage(agent, locator, added.body.position);
    expect(page.body.data.ancillaries).toEqual([
      expect.objectContaining({ emd_number: line.emd_number, status: "issued" }),
    ]);
    expect(page.body.data.history.at(-1)).toMatchObject({
      kind: "ancillaries",
      outcome: "done",
      balance_effect: bag.price,
      tickets: [line.emd_number],
    });
    expect(page.body.data.actions.find((a: Json) => a.action === "add_bags")).toMatchObject({
      allowed: true,
    });
    const again = await addAncillaries(agent, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
    ]);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe("ancillary_already_booked");
  });

  it("when a paid seat is picked, then it is an EMD, the map shows it held by the passenger, and nobody can take it again", async () => {
    const locator = await issuedFamily(agent, "flex", ["Shevchenko", "Bondar"]);
    const segment = await firstSegment(agent, locator);
    const seat = await seatOf(agent, locator, segment, "paid");
    const added = await addAncillaries(agent, locator, [
      { ancillary_id: seat.ancillary_id, passenger_index: 0, seat: seat.seat },
    ]);
    expect(added.status).toBe(201);
    expect(added.body.lines[0]).toMatchObject({ type: "seat", seat: seat.seat, price: seat.price });
    expect(added.body.lines[0].emd_number).toMatch(EMD);
    const map = await seatMap(agent, locator, segment);
    const taken = (map.body.data.rows as Json[])
      .flatMap((r) => r.seats as Json[])
      .find((s) => s.seat === seat.seat);
    expect(taken).toMatchObject({ status: "occupied", passenger_index: 0, ancillary_id: null });
    const other = await addAncillaries(agent, locator, [
      { ancillary_id: seat.ancillary_id, passenger_index: 1, seat: seat.seat },
    ]);
    expect(other.status).toBe(409);
    expect(other.body.errors[0].code).toBe("seat_taken");
    const occupied = await seatOf(agent, locator, segment, "free").catch(() => null);
    if (occupied) {
      const wrongZone = await addAncillaries(agent, locator, [
        { ancillary_id: seat.ancillary_id, passenger_index: 1, seat: occupied.seat },
      ]);
      expect([409, 422]).toContain(wrongZone.status);
    }
  });

  it("when an unused EMD is refunded, then its price is credited once and a second refund is refused", async () => {
    const locator = await issuedFamily(agent, "standard");
    const bag = await firstBag(agent, locator);
    const added = await addAncillaries(agent, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
    ]);
    const emd = added.body.lines[0].emd_number as string;
    const before = await balanceFromEvents(t.db, companyId);
    const refunded = await refundEmd(agent, locator, emd);
    expect(refunded.status).toBe(200);
    expect(refunded.body).toMatchObject({ emd_number: emd, refunded: bag.price, credited: bag.price });
    expect(await balanceFromEvents(t.db, companyId)).toBe(before + bag.price.amount);
    const second = await refundEmd(agent, locator, emd);
    expect(second.status).toBe(422);
    expect(second.body.errors[0].code).toBe("emd_not_refundable");
    expect(await balanceFromEvents(t.db, companyId)).toBe(before + bag.price.amount);
    const page = await bookingPage(agent, locator, refunded.body.position);
    expect(page.body.data.ancillaries[0]).toMatchObject({ emd_number: emd, status: "refunded" });
    expect((await moneyOf(t.db, locator)).map((m) => m.reason)).toEqual([
      "issue",
      "ancillaries",
      "emd_refund",
    ]);
    // The balance history names the operation of each movement: the EMD purchase and its refund.
    const admin = t.client();
    await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
    const history = await admin.get("/balance_history", {
      query: { company_id: companyId, per_page: 100 },
      headers: { "x-min-position": refunded.body.position },
    });
    const events = await t.events(`booking-${locator}`);
    const opOf = (type: string) => events.find((e) => e.type === type)?.data.operation_id;
    const ours = (history.body.data as Json[]).filter((l) => l.locator === locator);
    expect(ours.find((l) => l.reason === "ancillaries")?.operation_id).toBe(opOf("AncillariesStarted"));
    expect(ours.find((l) => l.reason === "emd_refund")?.operation_id).toBe(opOf("EmdRefunded"));
  });

  it("when the airline refuses EMDs (FAILEMD), then 422 emd_refused, the charge goes back, and no line is added", async () => {
    const locator = await issuedFamily(agent, "standard", ["FAILEMD"]);
    const bag = await firstBag(agent, locator);
    const before = await balanceFromEvents(t.db, companyId);
    const failed = await addAncillaries(agent, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
    ]);
    expect(failed.status).toBe(422);
    expect(failed.body.errors[0].code).toBe("emd_refused");
    expect(await balanceFromEvents(t.db, companyId)).toBe(before);
    expect((await moneyOf(t.db, locator)).map((m) => m.reason)).toEqual([
      "issue",
      "ancillaries",
      "ancillaries_failed",
    ]);
    const types = (await t.events(`booking-${locator}`)).map((e) => e.type);
    expect(types.slice(-2)).toEqual(["AncillariesStarted", "AncillariesFailed"]);
  });

  it("when the airline issues EMDs asynchronously (ASYNCEMD), then async_emd_issue is true until the job records their numbers", async () => {
    const locator = await issuedFamily(agent, "standard", ["ASYNCEMD"]);
    const bag = await firstBag(agent, locator);
    const added = await addAncillaries(agent, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
    ]);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ async_emd_issue: true, charged: bag.price });
    expect(added.body.lines[0]).toMatchObject({ status: "pending", emd_number: null });
    const pending = await bookingPage(agent, locator, added.body.position);
    expect(pending.body.data.async_emd_issue).toBe(true);
    let page = pending;
    for (let i = 0; i < 60 && page.body.data.async_emd_issue; i++) {
      await new Promise((r) => setTimeout(r, 500));
      page = await bookingPage(agent, locator);
    }
    expect(page.body.data.async_emd_issue).toBe(false);
    expect(page.body.data.ancillaries[0].emd_number).toMatch(EMD);
    const issued = (await t.events(`booking-${locator}`)).filter((e) => e.type === "EmdsIssued");
    expect(issued).toHaveLength(1);
    expect(issued[0]?.data).toMatchObject({ paid_with: "ancillaries" });
  }, 60_000);

  it("when a demo user adds a bag to a fake booking, then it gets a demo EMD and no money moves", async () => {
    const demo = t.client();
    await demo.signIn("demo@skyward.test");
    const locator = await holdFamily(demo, "standard");
    expect((await demo.post("/bookings/issue", { locator })).status).toBe(201);
    const bag = await firstBag(demo, locator);
    const added = await addAncillaries(demo, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
    ]);
    expect(added.status).toBe(201);
    expect(added.body.charged).toBeNull();
    expect(added.body.lines[0].emd_number).toMatch(EMD);
    expect(await moneyOf(t.db, locator)).toEqual([]);
  });
});

describe("other tenants and hostile input", () => {
  it("when another company's agent reads or changes a booking's ancillaries, then 404 and nothing is written", async () => {
    const locator = await issuedFamily(agent, "standard");
    const bag = await firstBag(agent, locator);
    const added = await addAncillaries(agent, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
    ]);
    const segment = await firstSegment(agent, locator);
    const stranger = t.client();
    await stranger.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    const before = await t.countEventsButBackground();
    expect((await catalogue(stranger, locator, "bag")).status).toBe(404);
    expect((await seatMap(stranger, locator, segment)).status).toBe(404);
    expect(
      (await addAncillaries(stranger, locator, [{ ancillary_id: bag.ancillary_id, passenger_index: 0 }]))
        .status,
    ).toBe(404);
    expect((await refundEmd(stranger, locator, added.body.lines[0].emd_number)).status).toBe(404);
    expect(await t.countEventsButBackground()).toBe(before);
  });

  it("when the input carries NUL characters, lone surrogates, huge numbers or broken paths, then 4xx in the envelope and nothing is written", async () => {
    const locator = await issuedFamily(agent, "standard");
    const before = await t.countEventsButBackground();
    const answers = [
      await catalogue(agent, locator, "bag%00"),
      await agent.get(`/bookings/${locator}/seat_map?segment=%ED%A0%80`),
      await agent.get(`/bookings/${locator}/seat_map?segment=a%00b`),
      await addAncillaries(agent, locator, [{ ancillary_id: "BAG\u0000X", passenger_index: 0 }]),
      await addAncillaries(agent, locator, [{ ancillary_id: "\ud800", passenger_index: 0 }]),
      await addAncillaries(agent, locator, [{ ancillary_id: "BAG-X", passenger_index: 1e300 }]),
      await addAncillaries(agent, locator, [{ ancillary_id: "SEAT-X", passenger_index: 0, seat: "\ud83d" }]),
      await addAncillaries(agent, locator, []),
      await agent.post(`/bookings/${locator}/ancillaries`, { items: "all" }),
      await refundEmd(agent, locator, "12%00"),
      await refundEmd(agent, "NOPE%", "5660000000000"),
    ];
    for (const a of answers) {
      expect(a.status).toBeGreaterThanOrEqual(400);
      expect(a.status).toBeLessThan(500);
      expect(a.body.errors?.[0]?.status).toBe(String(a.status));
    }
    expect(await t.countEventsButBackground()).toBe(before);
  });
});
