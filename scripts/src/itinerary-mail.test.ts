import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { commandJobHandlers } from "@skyward/command-service/jobs/registry";
import type { OutgoingMail } from "@skyward/command-service/notifications/port-types";
import { DirectoryCache } from "@skyward/command-service/offers/selling-context";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { countingPool } from "@skyward/infra/testing";
import { holdFamily, issuedFamily, startAfterSalesApp } from "./testing/after-sales.ts";
import { addAncillaries, firstBag } from "./testing/ancillaries.ts";
import { contacts, until } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import { demo, type Roles, signInRoles } from "./testing/roles.ts";
import { download, pdfText, sessionCookie } from "./testing/sales.ts";
import type { TestApp } from "./testing/test-app.ts";

/**
 * The traveller's itinerary e-mail (issue 24, item 1) over real HTTP and PostgreSQL: on issue by the company's
 * setting, and on demand from the booking page, read back from the dev outbox with its PDFs opened.
 */

let t: TestApp;
let agent: HttpClient;
let roles: Roles;
let cookie: string;

beforeAll(async () => {
  ({ t, agent } = await startAfterSalesApp({ scheduleEveryMs: 200 }));
  roles = await signInRoles(t);
  // The outbox's attachments are read as raw bytes with a session cookie, as a browser downloads them.
  const local = t.client();
  cookie = sessionCookie(await local.signIn("agent@dnipro.test"));
}, 180_000);
afterAll(() => t?.stop());

interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content_type: string; size: number; url: string }[];
}

async function mailsTo(address: string, locator: string): Promise<OutboxMail[]> {
  const res = await agent.get("/dev/mailbox", { query: { to: address } });
  return (res.body.data as OutboxMail[]).filter((m) => m.subject.includes(locator));
}

const mailTo = (address: string, locator: string, count = 1) =>
  until(
    async () => {
      const mails = await mailsTo(address, locator);
      return mails.length >= count ? mails : undefined;
    },
    15_000,
    `${count} itinerary mail(s) of ${locator} to ${address}`,
  );

async function attachmentTexts(mail: OutboxMail): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  for (const a of mail.attachments ?? []) {
    const file = await download(t.app.url, cookie, a.url);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(file.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    texts[a.filename] = await pdfText(file.bytes);
  }
  return texts;
}

const bookingOf = async (locator: string) => (await agent.get(`/bookings/${locator}`)).body.data as Json;

describe("itinerary on issue", () => {
  it("when a booking is issued, then the traveller gets the itinerary in the agent's language with the itinerary PDF and each ticket's receipt, and the send is recorded", async () => {
    const locator = await issuedFamily(agent, "standard", ["Shevchenko", "Kovalenko"]);
    const [mail] = await mailTo(contacts.email, locator);
    if (!mail) throw new Error("no mail");
    const booking = await bookingOf(locator);
    const tickets = (booking.tickets as Json[]).map((x) => x.ticket_number as string);
    expect(tickets).toHaveLength(2);

    expect(mail.subject).toBe(`Your itinerary, booking ${locator}`);
    expect(mail.text).toContain(`Here is your itinerary for booking ${locator}.`);
    for (const ticket of tickets) expect(mail.text).toContain(`ticket ${ticket}`);
    expect(mail.text).toMatch(/Shevchenko\/IvanA/i);
    expect(mail.text).toMatch(/Kovalenko\/IvanB/i);
    expect(mail.text).toMatch(/Departs: \d{4}-\d\d-\d\d \d\d:\d\d local time, /);
    expect(mail.text).toContain("Baggage: checked");
    expect(mail.text).toContain("Fare rules");
    expect(mail.text).toMatch(/Refunds before departure: (allowed|not permitted)/);
    expect(mail.text).toContain("Dnipro");
    expect(mail.html).toContain(`<h1 style="font-size:22px">Itinerary ${locator}</h1>`);
    expect(mail.html).toContain(`ticket ${tickets[0]}`);

    expect(mail.attachments?.map((a) => a.filename)).toEqual([
      `itinerary-${locator}.pdf`,
      ...tickets.map((ticket) => expect.stringContaining(`_${ticket}.pdf`)),
    ]);
    const texts = await attachmentTexts(mail);
    const itinerary = texts[`itinerary-${locator}.pdf`] ?? "";
    expect(itinerary).toContain(`Itinerary ${locator}`);
    for (const ticket of tickets) expect(itinerary).toContain(ticket);
    expect(itinerary).toContain("Changes before departure");
    const receipts = Object.entries(texts).filter(([name]) => !name.startsWith("itinerary-"));
    expect(receipts).toHaveLength(2);
    for (const [name, text] of receipts) {
      expect(text).toContain("Itinerary receipt");
      expect(text).toContain(locator);
      expect(tickets.some((ticket) => name.includes(ticket) && text.includes(ticket))).toBe(true);
    }

    const [event] = await t.events(`itinerary-${locator}`);
    expect(event).toMatchObject({
      type: "ItineraryMailed",
      data: { locator, to: contacts.email, reason: "issued", by: null, language: "en", note: null },
      metadata: { actor: { role: "System" } },
    });
    // Only once, however many sweeps run.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await t.events(`itinerary-${locator}`)).toHaveLength(1);
    expect(await mailsTo(contacts.email, locator)).toHaveLength(1);
  });

  it("when the company turns the itinerary on issue off, then an issued booking mails nobody; only its managers may turn it", async () => {
    const path = `/companies/${demo.kyiv}/itinerary_on_issue`;
    expect((await agent.patch(path, { itinerary_on_issue: false })).status).toBe(403);
    const foreign = await roles.otherSupervisor.patch(path, { itinerary_on_issue: false });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors[0].code).toBe("company_not_found");
    expect((await roles.auditor.patch(path, { itinerary_on_issue: false })).status).toBe(403);
    const bad = await roles.supervisor.patch(path, { itinerary_on_issue: "no" });
    expect(bad.status).toBe(422);
    expect(await t.events(`company-mail-${demo.kyiv}`)).toEqual([]);

    const off = await roles.supervisor.patch(path, { itinerary_on_issue: false });
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({ company_id: demo.kyiv, itinerary_on_issue: false });
    expect(await t.events(`company-mail-${demo.kyiv}`)).toMatchObject([
      { type: "ItineraryOnIssueSet", data: { company_id: demo.kyiv, on: false } },
    ]);
    try {
      const locator = await issuedFamily(agent, "flex");
      // Decided by the sweep (which runs every 200 ms here), and never recorded.
      await until(
        async () => {
          const { rowCount } = await t.db.pool.query(
            "SELECT 1 FROM app.itinerary_on_issue WHERE locator = $1",
            [locator],
          );
          return rowCount ? true : undefined;
        },
        10_000,
        "on-issue decision",
      );
      expect(await t.events(`itinerary-${locator}`)).toEqual([]);
      expect(await mailsTo(contacts.email, locator)).toEqual([]);
    } finally {
      expect((await roles.admin.patch(path, { itinerary_on_issue: true })).status).toBe(200);
    }
  });
});

describe("the send-itinerary job", () => {
  it("when it sends a recorded mail, then it reads the mail and its booking in one statement and the agency through the directory cache, and writes the same mail", async () => {
    const locator = await issuedFamily(agent, "standard", ["Bondar"]);
    const [sent] = await mailTo(contacts.email, locator);
    if (!sent) throw new Error("no mail");
    const [recorded] = await t.events(`itinerary-${locator}`);
    const mailId = (recorded?.data as { mail_id?: string } | undefined)?.mail_id ?? "";
    // The job's work on a pool that counts its statements, with a directory cache of its own (cold at first).
    const { pool: counting, statements } = countingPool(t.app.pool);
    const store = new EventStore(counting);
    const directory = new DirectoryCache(store, counting);
    const deps = { ...t.app.commandDeps, pool: counting, store, directory };
    const written: OutgoingMail[] = [];
    const handlers = commandJobHandlers(
      deps,
      { sweepEveryMs: 60_000, mailEveryMs: 60_000 },
      { send: async (mail) => void written.push(mail) },
    );
    const job = {
      traceId: "trace-send",
      jobId: "1",
      attempt: 1,
      maxAttempts: 10,
      logger: t.app.commandDeps.logger,
    };
    try {
      await handlers["send-itinerary"]({ locator, mail_id: mailId }, deps, job);
      // The mail and the booking (one statement), the agency (the cold cache), the agent's contacts.
      expect(statements()).toBe(3);
      await handlers["send-itinerary"]({ locator, mail_id: mailId }, deps, job);
      expect(statements()).toBe(5);
    } finally {
      directory.close();
    }
    expect(written).toHaveLength(2);
    expect(written[0]?.subject).toBe(sent.subject);
    expect(written[0]?.text).toBe(sent.text);
    expect(written[0]?.attachments?.map((a) => a.filename)).toEqual(sent.attachments?.map((a) => a.filename));
  });
});

describe("itinerary on demand", () => {
  it("when an agent sends the itinerary of a booking with a bag's EMD to another address with a note in French, then that address gets it with the EMD's receipt, and the booking's history names who sent it", async () => {
    const locator = await issuedFamily(agent, "flex");
    const bag = await firstBag(agent, locator);
    const added = await addAncillaries(agent, locator, [
      { ancillary_id: bag.ancillary_id, passenger_index: 0 },
    ]);
    expect(added.status).toBe(201);
    const emd = added.body.lines[0].emd_number as string;
    await mailTo(contacts.email, locator);

    const to = "Maria.Traveller@Example.org";
    const sent = await agent.post(`/bookings/${locator}/itinerary_mails`, {
      itinerary: { to, note: "Bon voyage !\nVotre agent", language: "fr" },
    });
    expect(sent.status).toBe(202);
    expect(sent.body.data).toMatchObject({
      to: "maria.traveller@example.org",
      note: "Bon voyage !\nVotre agent",
      language: "fr",
      reason: "on_demand",
      by_email: "agent@dnipro.test",
    });

    const [mail] = await mailTo("maria.traveller@example.org", locator);
    if (!mail) throw new Error("no mail");
    expect(mail.subject).toBe(`Votre itinéraire, réservation ${locator}`);
    expect(mail.text).toContain("Un message de votre agent:\nBon voyage !\nVotre agent");
    expect(mail.text).toContain(`EMD ${emd}`);
    expect(mail.text).toContain("Règles tarifaires");
    expect(mail.html).toContain("Bon voyage !<br>Votre agent");
    const names = mail.attachments?.map((a) => a.filename) ?? [];
    expect(names).toHaveLength(3);
    expect(names).toContain(`emd-${emd}.pdf`);
    const texts = await attachmentTexts(mail);
    expect(texts[`emd-${emd}.pdf`]).toContain("Reçu EMD");
    expect(texts[`emd-${emd}.pdf`]).toContain(emd);
    expect(texts[`itinerary-${locator}.pdf`]).toContain(`Itinéraire ${locator}`);
    expect(texts[`itinerary-${locator}.pdf`]).toContain("Bon voyage !");

    const events = await t.events(`itinerary-${locator}`);
    expect(events.map((e) => e.data.reason)).toEqual(["issued", "on_demand"]);
    expect(events[1]).toMatchObject({
      data: { to: "maria.traveller@example.org", by: { email: "agent@dnipro.test" } },
      metadata: { actor: { role: "Agent" } },
    });

    const history = await agent.get(`/bookings/${locator}/itinerary_mails`, {
      headers: { "x-min-position": sent.body.position },
    });
    expect(history.status).toBe(200);
    expect(history.body.data.map((m: Json) => [m.reason, m.to, m.by_email])).toEqual([
      ["issued", contacts.email, null],
      ["on_demand", "maria.traveller@example.org", "agent@dnipro.test"],
    ]);
    // Outside the booking's scope it does not exist.
    expect((await roles.otherAgent.get(`/bookings/${locator}/itinerary_mails`)).status).toBe(404);
    expect((await roles.otherSupervisor.get(`/bookings/${locator}/itinerary_mails`)).status).toBe(404);
    expect((await roles.supervisor.get(`/bookings/${locator}/itinerary_mails`)).status).toBe(200);
  });

  it("when the input is bad or the booking is not the caller's or not issued, then the answer says so and nothing is written or sent", async () => {
    const locator = await issuedFamily(agent, "flex");
    await mailTo(contacts.email, locator);
    const send = (client: HttpClient, path: string, body: Json) => client.post(path, body);
    const path = `/bookings/${locator}/itinerary_mails`;

    const notAddress = await send(agent, path, { itinerary: { to: "not-an-address" } });
    expect(notAddress.status).toBe(422);
    expect(notAddress.body.errors[0].source).toEqual({ pointer: "/itinerary/to" });
    const badLanguage = await send(agent, path, { itinerary: { to: "a@example.org", language: "de" } });
    expect(badLanguage.status).toBe(422);
    const longNote = await send(agent, path, { itinerary: { to: "a@example.org", note: "x".repeat(1001) } });
    expect(longNote.status).toBe(422);
    const unknown = await send(agent, "/bookings/ZZZZZZ/itinerary_mails", {
      itinerary: { to: "a@example.org" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe("booking_not_found");
    const foreign = await send(roles.otherAgent, path, { itinerary: { to: "a@example.org" } });
    expect(foreign.status).toBe(404);
    const auditor = await send(roles.auditor, path, { itinerary: { to: "a@example.org" } });
    expect(auditor.status).toBe(403);
    const held = await holdFamily(agent, "flex");
    const notIssued = await send(agent, `/bookings/${held}/itinerary_mails`, {
      itinerary: { to: "a@example.org" },
    });
    expect(notIssued.status).toBe(422);
    expect(notIssued.body.errors[0].code).toBe("itinerary_not_issued");

    expect(await t.events(`itinerary-${locator}`)).toHaveLength(1);
    expect(await t.events(`itinerary-${held}`)).toEqual([]);
    expect(await mailsTo("a@example.org", locator)).toEqual([]);
  });
});
