import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import {
  bookingPage,
  confirmExchange,
  holdFamily,
  issuedFamily,
  pricedExchange,
  startAfterSalesApp,
} from "./testing/after-sales.ts";
import { addAncillaries, firstBag, firstSegment, refundEmd, seatMap, seatOf } from "./testing/ancillaries.ts";
import { balanceFromEvents, moneyOf } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import { download, pdfText, sessionCookie } from "./testing/sales.ts";
import type { TestApp } from "./testing/test-app.ts";

/**
 * EMDs across the other after-sales operations, over real HTTP and PostgreSQL: they survive an exchange and stay
 * refundable once, demo bookings have seat maps, and what the booking page says a void gives back is what it credits.
 */

let t: TestApp;
let agent: HttpClient;
let companyId: string;

beforeAll(async () => {
  ({ t, agent, companyId } = await startAfterSalesApp());
}, 180_000);
afterAll(() => t?.stop());

const EMD = /^\d{13}$/;
/** An amount in hryvnias as an English receipt writes it: "1,234.50 UAH". */
const amountText = (m: { amount: number; currency: string }) =>
  `${(m.amount / 100).toLocaleString("en-GB", { minimumFractionDigits: 2 })} ${m.currency}`;
const seats = (map: Json) => (map.rows as Json[]).flatMap((r) => r.seats as Json[]);

describe("EMDs and exchange", () => {
  it("when tickets with a bag's EMD are exchanged, then the EMD stays on the booking and its refund credits it exactly once", async () => {
    const locator = await issuedFamily(agent, "standard");
    const bag = await firstBag(agent, locator);
    const added = await addAncillaries(agent, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
    ]);
    expect(added.status).toBe(201);
    const emd = added.body.lines[0].emd_number as string;
    expect(emd).toMatch(EMD);

    const priced = await pricedExchange(agent, locator, 28);
    expect(priced.status).toBe(200);
    const offer = priced.body.offers[0];
    const exchanged = await confirmExchange(agent, locator, offer.reshop_offer_id);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.status).toBe("exchanged");

    const page = await bookingPage(agent, locator, exchanged.body.position);
    expect(page.body.data.status).toBe("exchanged");
    // Each document with how it was paid: the EMD and the new tickets from the company balance.
    expect(page.body.data.ancillaries).toEqual([
      expect.objectContaining({
        emd_number: emd,
        status: "issued",
        price: bag.price,
        paid_by: { method: "balance" },
      }),
    ]);
    for (const ticket of page.body.data.tickets) expect(ticket.paid_by).toEqual({ method: "balance" });
    const sold = await agent.get("/sales", {
      query: { "ticket[text]": emd },
      headers: { "x-min-position": exchanged.body.position },
    });
    expect(sold.body.data).toEqual([
      expect.objectContaining({ kind: "emd", paid_by: { method: "balance" } }),
    ]);

    const before = await balanceFromEvents(t.db, companyId);
    const [first, second] = await Promise.all([
      refundEmd(agent, locator, emd),
      refundEmd(agent, locator, emd),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses[0]).toBe(200);
    expect(statuses[1]).toBeGreaterThanOrEqual(409);
    const refunded = first.status === 200 ? first : second;
    expect(refunded.body).toMatchObject({ emd_number: emd, refunded: bag.price, credited: bag.price });
    const again = await refundEmd(agent, locator, emd);
    expect(again.status).toBe(422);
    expect(again.body.errors[0].code).toBe("emd_not_refundable");
    expect(await balanceFromEvents(t.db, companyId)).toBe(before + bag.price.amount);
    expect((await moneyOf(t.db, locator)).filter((m) => m.reason === "emd_refund")).toEqual([
      { type: "BalanceCredited", reason: "emd_refund", amount: bag.price.amount },
    ]);
    const after = await bookingPage(agent, locator, refunded.body.position);
    expect(after.body.data.ancillaries[0]).toMatchObject({ emd_number: emd, status: "refunded" });
  });
});

describe("seat maps of demo bookings", () => {
  it("when a demo user opens a demo booking's seat map, then it shows the cabin, a paid seat can be picked, and the map marks it held", async () => {
    const demo = t.client();
    await demo.signIn("demo@skyward.test");
    const locator = await holdFamily(demo, "standard");
    expect((await demo.post("/bookings/issue", { locator })).status).toBe(201);
    const segment = await firstSegment(demo, locator);
    const map = await seatMap(demo, locator, segment);
    expect(map.status).toBe(200);
    expect(map.body.data).toMatchObject({ segment_id: segment, columns: expect.arrayContaining(["A", ""]) });
    expect(new Set(seats(map.body.data).map((s) => s.status))).toEqual(new Set(["free", "paid", "occupied"]));

    const paid = await seatOf(demo, locator, segment, "paid");
    const added = await addAncillaries(demo, locator, [
      { ancillary_id: paid.ancillary_id, passenger_index: 0, seat: paid.seat },
    ]);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ charged: null });
    expect(added.body.lines[0]).toMatchObject({ type: "seat", seat: paid.seat, status: "issued" });
    expect(await moneyOf(t.db, locator)).toEqual([]);

    const after = (await seatMap(demo, locator, segment)).body.data;
    expect(seats(after).find((s) => s.seat === paid.seat)).toMatchObject({
      status: "occupied",
      passenger_index: 0,
      ancillary_id: null,
    });
    // A seat other travellers hold is refused, as the airline would.
    const taken = seats(map.body.data).find((s) => s.status === "occupied");
    const free = await seatOf(demo, locator, segment, "free");
    const onTaken = await addAncillaries(demo, locator, [
      { ancillary_id: free.ancillary_id, passenger_index: 0, seat: taken?.seat },
    ]);
    expect([409, 422]).toContain(onTaken.status);
  });
});

describe("EMD receipts", () => {
  it("when the agent downloads an EMD's receipt, then it names the service, the passenger, the ticket it goes with and the amount, not a fare's baggage", async () => {
    const locator = await issuedFamily(agent, "standard");
    const segment = await firstSegment(agent, locator);
    const seat = await seatOf(agent, locator, segment, "paid");
    const bag = await firstBag(agent, locator);
    const added = await addAncillaries(agent, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
      { ancillary_id: seat.ancillary_id, passenger_index: 0, seat: seat.seat },
    ]);
    expect(added.status).toBe(201);
    const lineOf = (type: string) => (added.body.lines as Json[]).find((l) => l.type === type);
    const page = await bookingPage(agent, locator, added.body.position);
    const ticket = (page.body.data.tickets as Json[]).find((x) => x.passenger_index === 0);
    const passenger = page.body.data.passengers[0];
    const seg = page.body.data.fare.flights[0].segments[0];

    const seller = t.client();
    const cookie = sessionCookie(await seller.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD));
    const receipt = async (emd: string, lang: string) => {
      const file = await download(t.app.url, cookie, `/sales/${emd}-emd?lang=${lang}`);
      expect(file.status).toBe(200);
      expect(file.headers["content-type"]).toBe("application/pdf");
      return pdfText(file.bytes);
    };
    const bagLine = lineOf("checked_bag");
    const text = await receipt(bagLine.emd_number, "en");
    for (const expected of [
      "EMD receipt",
      `${passenger.last_name}/${passenger.first_name}`.toUpperCase(),
      bagLine.emd_number,
      `Checked bag ${bagLine.weight_kg} kg`,
      `${seg.carrier} ${seg.flight_number}`,
      amountText(bagLine.price),
    ])
      expect(text).toContain(expected);
    expect(text).toMatch(new RegExp(`For ticket:\\s+${ticket.ticket_number}`));
    expect(text).not.toContain("Itinerary receipt");
    expect(text).not.toContain("Ticket number");
    expect(text).not.toContain("Baggage");

    const seatText = await receipt(lineOf("seat").emd_number, "en");
    expect(seatText).toContain(`Seat ${seat.seat}`);
    expect(seatText).toContain(amountText(lineOf("seat").price));
    for (const [lang, words] of [
      ["ua", ["Квитанція EMD", "Зареєстрований багаж", "До квитка"]],
      ["pl", ["Potwierdzenie EMD", "Bagaż rejestrowany", "Do biletu"]],
      ["fr", ["Reçu EMD", "Bagage en soute", "Pour le billet"]],
      ["es", ["Recibo de EMD", "Equipaje facturado", "Del billete"]],
    ] as const) {
      const read = await receipt(bagLine.emd_number, lang);
      for (const word of words) expect(read).toContain(word);
    }
  });
});

describe("what a void gives back", () => {
  it("when an EMD was refunded before a void, then the booking page's void amount is the charge less that refund, and the void credits exactly it", async () => {
    const locator = await issuedFamily(agent, "flex");
    const segment = await firstSegment(agent, locator);
    const seat = await seatOf(agent, locator, segment, "paid");
    const bag = await firstBag(agent, locator);
    const added = await addAncillaries(agent, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
      { ancillary_id: seat.ancillary_id, passenger_index: 0, seat: seat.seat },
    ]);
    expect(added.status).toBe(201);
    const bagEmd = added.body.lines.find((l: Json) => l.type === "checked_bag").emd_number;
    const refunded = await refundEmd(agent, locator, bagEmd);
    expect(refunded.status).toBe(200);

    const page = await bookingPage(agent, locator, refunded.body.position);
    const action = (page.body.data.actions as Json[]).find((a) => a.action === "void");
    expect(action).toMatchObject({ allowed: true, estimate: false });
    const charged = (await moneyOf(t.db, locator))
      .map((m) => (m.type === "BalanceCharged" ? m.amount : -m.amount))
      .reduce((a, b) => a + b, 0);
    expect(action?.money).toEqual({
      amount: page.body.data.price.amount + seat.price.amount,
      currency: "UAH",
    });
    expect(action?.money.amount).toBe(charged);

    const before = await balanceFromEvents(t.db, companyId);
    const voided = await agent.delete(`/bookings/${locator}`);
    expect(voided.status).toBe(200);
    expect(voided.body.status).toBe("voided");
    expect(await balanceFromEvents(t.db, companyId)).toBe(before + action?.money.amount);
  });
});
