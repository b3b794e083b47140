// `npm run bench -- itinerary-documents [--mails=800] [--warmup=50]` (issue 26): the CPU the jobs process spends on
// an issued booking's documents, as its itinerary mail attaches them (the itinerary PDF and the ticket's receipt), in
// this process, with no database: each mail another locator and ticket number, alternating Ukrainian and English.
// Prints CPU ms per mail (user + system over the measured mails), a figure the rest of a busy machine barely moves.
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

export async function run(args: readonly string[]): Promise<void> {
  const mails = arg(args, "mails", 800);
  const warmup = arg(args, "warmup", 50);
  for (let n = 0; n < warmup; n++) await mail(1_000_000 + n);
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let n = 0; n < mails; n++) await mail(n);
  const used = process.cpuUsage(cpu);
  console.log(
    `itinerary documents: ${mails} mails (itinerary + receipt) after ${warmup} unmeasured: ${((used.user + used.system) / 1000 / mails).toFixed(2)} CPU ms per mail, ${((performance.now() - wall) / mails).toFixed(2)} ms wall`,
  );
}
