import type { Statement } from "@skyward/contracts/invoices";
import type { Receipt } from "@skyward/infra/documents/ticket-pdf";

/** A ticket's receipt as an issued booking's mail attaches it: one passenger, KBP-WAW on PS, a fare in UAH. */
export const ticketReceipt = (passenger: string, ticket: string, locator = "FNT123"): Receipt => ({
  kind: "ticket",
  passenger,
  loyalty: null,
  ssrs: [],
  ticket_number: ticket,
  locator,
  status: "issued",
  issued_at: "2026-11-29T08:00:00.000Z",
  time_zone: "Europe/Kyiv",
  emd: null,
  carrier: "PS",
  route: "KBP-WAW",
  flights: [],
  fare: null,
  paid_by: null,
  price: {
    fare: { amount: 120_000, currency: "UAH" },
    taxes: { amount: 15_050, currency: "UAH" },
    fees: { amount: 0, currency: "UAH" },
    total: { amount: 135_050, currency: "UAH" },
    custom: false,
  },
  agency: {
    name: "Dnipro Travel",
    company: "Acme",
    agent: "Olena K",
    email: "olena@dnipro.test",
    phone: null,
  },
});

/** A Polish company's October statement in PLN, with the movements given (none unless given). */
export const companyStatement = (movements: Statement["movements"] = []): Statement => ({
  company_id: "c1",
  company_name: "Łódź Żurawie",
  month: "2026-10",
  currency: "PLN",
  opening_balance: 0,
  closing_balance: -10_000,
  charged: 10_000,
  credited: 0,
  movements,
});
