import type { SkywardOptions } from "../app.ts";
import { contacts, inDays, passenger, topUp } from "./bookings.ts";
import type { HttpClient, Json } from "./http-client.ts";
import { startTestApp, type TestApp } from "./test-app.ts";

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

/**
 * The app the after-sales tests share: the Dnipro Kyiv agent signed in, and its company's balance topped up far
 * enough that no test runs out of money.
 */
export async function startAfterSalesApp(
  options: Partial<SkywardOptions> = {},
): Promise<{ t: TestApp; agent: HttpClient; companyId: string }> {
  const t = await startTestApp(options);
  const agent = t.client();
  await agent.signIn("agent@dnipro.test");
  const first = await holdFamily(agent, "flex");
  const [held] = await t.events(`booking-${first}`);
  const companyId = held?.data.company_id as string;
  await topUp(t.db, t.app.store, companyId, 100_000_000_00);
  return { t, agent, companyId };
}
