// `npm run bench -- itinerary-documents [--mails=800] [--warmup=50]` (issue 26): the CPU the jobs process spends on
// an issued booking's documents, as its itinerary mail attaches them (the itinerary PDF and the ticket's receipt), in
// this process, with no database: each mail another locator and ticket number, alternating Ukrainian and English.
// Prints CPU ms per mail (user + system over the measured mails), a figure the rest of a busy machine barely moves:
// first for the two documents of a booking without flights or fare (the documents' fixed cost), then for the whole
// mail as the jobs process composes it (composeItineraryMail) for a real issued booking, one passenger on a
// sandbox KBP → WAW fare with its flights and fare rules, taken from a booking-flow run (data/issued-booking.json),
// and last for that mail composed and sent as the jobs process sends it (SmtpMailer, to a sink in another process).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import type { ActiveBooking } from "@skyward/command-service/bookings/booking";
import {
  type ComposeDeps,
  composeItineraryMail,
  type SellingAgent,
} from "@skyward/command-service/itinerary/compose";
import type { OutgoingMail } from "@skyward/command-service/notifications/port-types";
import { SmtpMailer } from "@skyward/command-service/notifications/smtp-mailer";
import type { ItineraryMailed } from "@skyward/contracts/itinerary";
import { createPool } from "@skyward/infra/db";
import { renderItineraryPdf } from "@skyward/infra/documents/itinerary";
import { renderReceipt } from "@skyward/infra/documents/ticket-pdf";
import { ticketReceipt } from "../src/testing/receipt-fixture.ts";

function arg(args: readonly string[], name: string, fallback: number): number {
  const found = args.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split("=")[1]) : fallback;
}

const LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ";
/** Another locator per mail, as the sandbox supplier gives them. */
const locatorOf = (n: number) =>
  Array.from({ length: 6 }, (_, k) => LETTERS[(n * 7 + k * 13 + (n >> k)) % LETTERS.length]).join("");

const receipt = (locator: string, ticket: string) => ticketReceipt("TRAVELLER/BENCH", ticket, locator);

async function mail(n: number): Promise<void> {
  const locator = locatorOf(n);
  const ticket = String(5_661_234_500_000 + n * 37);
  const language = n % 2 ? "en" : "ua";
  await renderItineraryPdf(
    {
      locator,
      agency: { name: "Dnipro Travel", email: "olena@dnipro.test", phone: "+380 44 000 00 00" },
      note: null,
      passengers: [{ name: "TRAVELLER/BENCH", ticket_number: ticket }],
      flights: [],
      fare: null,
      extras: [],
    },
    language,
  );
  await renderReceipt(receipt(locator, ticket), language);
}

const issued = JSON.parse(readFileSync(new URL("data/issued-booking.json", import.meta.url), "utf8")) as {
  booking: ActiveBooking;
  mail: ItineraryMailed;
  agent: SellingAgent;
};
/**
 * What composing reads besides the booking: the agency from the directory cache (answered empty here, so the mail
 * is signed "Skyward", as for an agency not found); the agent is given, as the batch job gives it, so the pool (which
 * connects only when asked) is never asked.
 */
const directoryOnly: ComposeDeps = {
  directory: { readStreams: async () => new Map() },
  pool: createPool("postgres://bench@127.0.0.1:1/unused", { max: 1 }),
};

function composed(n: number): Promise<OutgoingMail> {
  const booking = { ...issued.booking, locator: locatorOf(n) };
  return composeItineraryMail(
    directoryOnly,
    booking,
    { ...issued.mail, locator: booking.locator, language: n % 2 ? "en" : "ua" },
    issued.agent,
  );
}

async function wholeMail(n: number): Promise<void> {
  await composed(n);
}

/** An SMTP server in a process of its own that takes every mail and drops it (its CPU is not this process's). */
async function smtpSink(): Promise<{ url: string; stop(): void }> {
  const source = `const { SMTPServer } = require("smtp-server");
const s = new SMTPServer({ authOptional: true, disabledCommands: ["STARTTLS"], logger: false,
  onData(stream, _session, done) { stream.resume(); stream.on("end", () => done()); } });
s.listen(0, "127.0.0.1", () => console.log("port " + s.server.address().port));`;
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      const match = /port (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`the SMTP sink exited with ${code}`)));
  });
  return { url: `smtp://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** CPU ms per call of `one` over `count` calls, after `warmup` unmeasured, and wall ms per call. */
async function measure(one: (n: number) => Promise<void>, count: number, warmup: number) {
  for (let n = 0; n < warmup; n++) await one(1_000_000 + n);
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let n = 0; n < count; n++) await one(n);
  const used = process.cpuUsage(cpu);
  return {
    cpu: ((used.user + used.system) / 1000 / count).toFixed(2),
    wall: ((performance.now() - wall) / count).toFixed(2),
  };
}

export async function run(args: readonly string[]): Promise<void> {
  const mails = arg(args, "mails", 800);
  const warmup = arg(args, "warmup", 50);
  const bare = await measure(mail, mails, warmup);
  console.log(
    `itinerary documents: ${mails} mails (itinerary + receipt, no flights or fare) after ${warmup} unmeasured: ${bare.cpu} CPU ms per mail, ${bare.wall} ms wall`,
  );
  const whole = await measure(wholeMail, mails, warmup);
  console.log(
    `itinerary mail composed for an issued booking (flights, fare rules, receipt): ${whole.cpu} CPU ms per mail, ${whole.wall} ms wall`,
  );
  // The same mail sent as the jobs process sends it: its MIME message built, over a kept SMTP connection.
  const sink = await smtpSink();
  const mailer = new SmtpMailer(sink.url, "Skyward <no-reply@skyward.test>");
  try {
    const sent = await measure(async (n) => mailer.send(await composed(n)), mails, warmup);
    console.log(
      `the same mail composed and sent over SMTP (to a sink in another process): ${sent.cpu} CPU ms per mail, ${sent.wall} ms wall`,
    );
  } finally {
    mailer.close();
    sink.stop();
  }
}
