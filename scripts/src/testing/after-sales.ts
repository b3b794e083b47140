import { contacts, inDays, passenger } from "./bookings.ts";
import type { HttpClient, Json } from "./http-client.ts";

/** After-sales steps over HTTP shared by the refund, exchange and race tests. */

/** A held booking on a network carrier's fare of this family (light: non-refundable, standard: penalty, flex: free). */
export async function holdFamily(
  client: HttpClient,
  family: "light" | "standard" | "flex",
  lastNames: string[] = ["Petrenko"],
  departureInDays = 21,
): Promise<string> {
  const search = await client.post("/offers", {
    origin: "KBP",
    destination: "WAW",
    departure_date: inDays(departureInDays),
    passengers: { adults: lastNames.length, children: 0, infants: 0 },
    carriers: ["PS", "LO"],
  });
  if (search.status !== 200)
    throw new Error(`search answered ${search.status}: ${JSON.stringify(search.body)}`);
  const fare = (search.body.result.origin_destinations as Json[])
    .flatMap((od) => od.fares as Json[])
    .find((f) => f.family === family && !f.instant_payment);
  if (!fare) throw new Error(`no ${family} fare found`);
  const res = await client.post("/bookings", {
    search_result_id: search.body.result.id,
    fare_id: fare.fare_id,
    passengers: lastNames.map((last, i) => passenger(`Ivan${"ABCDEFGHI"[i]}`, last)),
    contacts,
  });
  if (res.status !== 201) throw new Error(`booking answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.locator as string;
}

/** Issued tickets of this family. */
export async function issuedFamily(
  client: HttpClient,
  family: "light" | "standard" | "flex",
  lastNames?: string[],
): Promise<string> {
  const locator = await holdFamily(client, family, lastNames);
  const issued = await client.post("/bookings/issue", { locator });
  if (issued.status !== 201)
    throw new Error(`issue answered ${issued.status}: ${JSON.stringify(issued.body)}`);
  return locator;
}

export const refundQuote = (client: HttpClient, locator: string, passengers?: number[]) =>
  client.post(`/orders/${locator}/refund_requests/create`, passengers ? { passengers } : {});

export const confirmRefund = (client: HttpClient, locator: string, quoteId: string) =>
  client.post(`/orders/${locator}/refund_requests/confirm`, { quote_id: quoteId });

/** A flights-change request to the same journey this many days out, and its priced offers. */
export async function pricedExchange(client: HttpClient, locator: string, departureInDays = 28) {
  const created = await client.post(`/orders/${locator}/flights_change_requests/create`, {
    departure_date: inDays(departureInDays),
  });
  if (created.status !== 201)
    throw new Error(`change request answered ${created.status}: ${JSON.stringify(created.body)}`);
  return client.post(`/orders/${locator}/reshop_offers/price`, {});
}

export const confirmExchange = (client: HttpClient, locator: string, reshopOfferId: string) =>
  client.post(`/orders/${locator}/flights_change_requests/confirm`, { reshop_offer_id: reshopOfferId });

/** The booking page once the read model has seen the command at `position`. */
export function bookingPage(client: HttpClient, locator: string, position?: string | null) {
  return client.get(
    `/bookings/${locator}`,
    position ? { headers: { "x-min-position": position } } : undefined,
  );
}
