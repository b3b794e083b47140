import type { ItineraryMailed } from "@skyward/contracts/itinerary";
import type { Money } from "@skyward/contracts/money";
import { ticketFileName } from "@skyward/contracts/sales";
import {
  type Itinerary,
  itineraryHtml,
  itinerarySubject,
  itineraryText,
  renderItineraryPdf,
} from "@skyward/infra/documents/itinerary";
import { type Receipt, renderReceipt } from "@skyward/infra/documents/ticket-pdf";
import type { ActiveBooking } from "../bookings/booking.ts";
import type { CommandDeps } from "../deps.ts";
import { agencyStream, evolveAgency, noAgency } from "../directory/agency.ts";
import type { MailAttachment, OutgoingMail } from "../notifications/port-types.ts";
import { foldOnce } from "../offers/selling-context.ts";

const PDF = "application/pdf";

/** The agent who sold a booking, and the agent's company's name, as the mail and its receipts show them. */
export interface SellingAgent {
  email: string | null;
  phone: string | null;
  name: string | null;
  company: string | null;
}

/** What composing a mail reads: the agency from the directory cache, and the agent from the read model. */
export type ComposeDeps = Pick<CommandDeps, "pool"> & {
  directory: Pick<CommandDeps["directory"], "readStreams">;
};

const agentKey = (booking: Pick<ActiveBooking, "agent_id" | "company_id">) =>
  `${booking.agent_id}\u0000${booking.company_id}`;

/**
 * The selling agents of several bookings in one statement (a batch of mails, issue 26), by booking: look one up with
 * `sellingAgentOf`.
 */
export async function sellingAgents(
  deps: Pick<CommandDeps, "pool">,
  bookings: readonly Pick<ActiveBooking, "agent_id" | "company_id">[],
): Promise<Map<string, SellingAgent>> {
  const { rows } = await deps.pool.query<SellingAgent & { agent_id: string; company_id: string }>(
    `SELECT x.agent_id, x.company_id, u.email, u.phone, trim(u.first_name || ' ' || u.last_name) AS name,
            (SELECT c.name FROM read.companies c WHERE c.id = x.company_id) AS company
       FROM unnest($1::text[], $2::text[]) AS x(agent_id, company_id) LEFT JOIN read.users u ON u.id = x.agent_id`,
    [bookings.map((b) => b.agent_id), bookings.map((b) => b.company_id)],
  );
  return new Map(
    rows.map(({ agent_id, company_id, ...agent }) => [agentKey({ agent_id, company_id }), agent]),
  );
}

export const sellingAgentOf = (
  agents: ReadonlyMap<string, SellingAgent>,
  booking: Pick<ActiveBooking, "agent_id" | "company_id">,
): SellingAgent | undefined => agents.get(agentKey(booking));

/**
 * Whom the booking was sold by: the agency's name, the company's, and the agent's contacts (read here unless the
 * caller read them with its batch's, `sellingAgents`). The agency's stream comes from the directory cache (dropped on
 * every change, here or announced by another process), as the selling context reads it: a statement per mail less
 * (issue 26).
 */
async function sellerOf(deps: ComposeDeps, booking: ActiveBooking, known?: SellingAgent) {
  const stream = agencyStream(booking.agency_id);
  // Folded once per read of the stream (foldOnce), not per mail: each fold parsed every agency event with zod, 3 % of
  // the jobs process's CPU in the flow bench with after-sales.
  const agency = foldOnce(
    (await deps.directory.readStreams([stream])).get(stream) ?? [],
    evolveAgency,
    noAgency,
  );
  const agent = known ?? sellingAgentOf(await sellingAgents(deps, [booking]), booking);
  return {
    name: agency.status === "active" ? agency.name : "Skyward",
    timeZone: agency.status === "active" ? agency.time_zone : "UTC",
    company: agent?.company ?? null,
    agent: agent?.name ?? null,
    email: agent?.email ?? null,
    phone: agent?.phone ?? null,
  };
}

const passengerName = (booking: ActiveBooking, index: number) => {
  const p = booking.passengers[index];
  return p ? `${p.last_name}/${p.first_name}` : "";
};

const RECEIPT_STATUS: Partial<Record<ActiveBooking["status"], string>> = {
  voided: "voided",
  refunded: "refunded",
  exchanged: "exchanged",
};

/** The itinerary e-mail of a recorded send: text and HTML, the itinerary PDF, and every ticket's and EMD's receipt. */
export async function composeItineraryMail(
  deps: ComposeDeps,
  booking: ActiveBooking,
  mail: ItineraryMailed,
  agent?: SellingAgent,
): Promise<OutgoingMail> {
  const seller = await sellerOf(deps, booking, agent);
  const language = mail.language;
  const ticketOf = (index: number) => booking.tickets.find((t) => t.passenger_index === index) ?? null;
  const itinerary: Itinerary = {
    locator: booking.locator,
    agency: { name: seller.name, email: seller.email, phone: seller.phone },
    note: mail.note,
    passengers: booking.passengers.map((_, i) => ({
      name: passengerName(booking, i),
      ticket_number: ticketOf(i)?.ticket_number ?? null,
    })),
    flights: booking.fare.flights,
    fare: booking.fare.fare,
    extras: booking.ancillaries
      .filter((a) => a.status !== "refunded" && a.status !== "voided")
      .map((a) => ({
        passenger_index: a.passenger_index,
        type: a.type,
        weight_kg: a.weight_kg,
        seat: a.seat,
        segment_id: a.segment_id,
        emd_number: a.emd_number,
      })),
  };
  const segments = booking.fare.flights.flatMap((f) => f.segments);
  // The passenger's loyalty number and SSRs as the airline took them (issue 23), on their receipts.
  const servicesOf = (index: number): Pick<Receipt, "loyalty" | "ssrs"> => {
    const services = booking.passenger_services?.find((s) => s.index === index);
    return { loyalty: services?.loyalty ?? null, ssrs: services?.ssrs ?? [] };
  };
  const base: Omit<Receipt, "kind" | "passenger" | "ticket_number" | "emd" | "price" | "loyalty" | "ssrs"> = {
    locator: booking.locator,
    status: RECEIPT_STATUS[booking.status] ?? "issued",
    issued_at: booking.issued_at ?? mail.at,
    time_zone: seller.timeZone,
    carrier: booking.fare.carrier,
    route: booking.fare.route,
    flights: booking.fare.flights,
    fare: booking.fare.fare,
    paid_by: null,
    agency: {
      name: seller.name,
      company: seller.company,
      agent: seller.agent,
      email: seller.email,
      phone: seller.phone,
    },
  };
  const zero = (m: Money): Money => ({ amount: 0, currency: m.currency });
  const attachments: MailAttachment[] = [
    {
      filename: `itinerary-${booking.locator}.pdf`,
      content_type: PDF,
      content: await renderItineraryPdf(itinerary, language),
    },
  ];
  for (const ticket of booking.tickets) {
    const fees = ticket.total.amount - ticket.base_fare.amount - ticket.taxes.amount;
    const receipt: Receipt = {
      ...base,
      kind: "ticket",
      passenger: ticket.passenger_name,
      ...servicesOf(ticket.passenger_index),
      ticket_number: ticket.ticket_number,
      emd: null,
      price: {
        fare: ticket.base_fare,
        taxes: ticket.taxes,
        fees: { amount: fees, currency: ticket.total.currency },
        total: ticket.total,
        custom: false,
      },
    };
    attachments.push({
      filename: ticketFileName(ticket.passenger_name, ticket.ticket_number),
      content_type: PDF,
      content: await renderReceipt(receipt, language),
    });
  }
  for (const line of booking.ancillaries) {
    if (!line.emd_number || line.status === "refunded" || line.status === "voided") continue;
    const receipt: Receipt = {
      ...base,
      kind: "emd",
      passenger: passengerName(booking, line.passenger_index),
      ...servicesOf(line.passenger_index),
      ticket_number: line.emd_number,
      emd: {
        service: { type: line.type, weight_kg: line.weight_kg, seat: line.seat },
        ticket_number: ticketOf(line.passenger_index)?.ticket_number ?? null,
        segment: segments.find((s) => s.id === line.segment_id) ?? null,
      },
      price: {
        fare: line.price,
        taxes: zero(line.price),
        fees: zero(line.price),
        total: line.price,
        custom: false,
      },
    };
    attachments.push({
      filename: `emd-${line.emd_number}.pdf`,
      content_type: PDF,
      content: await renderReceipt(receipt, language),
    });
  }
  return {
    to: mail.to,
    subject: itinerarySubject(itinerary, language),
    text: itineraryText(itinerary, language),
    html: itineraryHtml(itinerary, language),
    attachments,
  };
}
