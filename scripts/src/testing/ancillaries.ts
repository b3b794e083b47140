import type { HttpClient, Json } from "./http-client.ts";

/** Ancillary steps over HTTP shared by the ancillaries and race tests. */

export const catalogue = (client: HttpClient, locator: string, type?: string) =>
  client.get(`/bookings/${locator}/ancillaries${type ? `?type=${type}` : ""}`);

export const addAncillaries = (client: HttpClient, locator: string, items: Json[]) =>
  client.post(`/bookings/${locator}/ancillaries`, { items });

export const refundEmd = (client: HttpClient, locator: string, emdNumber: string) =>
  client.post(`/bookings/${locator}/emds/${emdNumber}/refund`, {});

export const seatMap = (client: HttpClient, locator: string, segmentId: string) =>
  client.get(`/bookings/${locator}/seat_map?segment=${encodeURIComponent(segmentId)}`);

/** The first checked bag of the booking's first segment. */
export async function firstBag(client: HttpClient, locator: string): Promise<Json> {
  const res = await catalogue(client, locator, "bag");
  if (res.status !== 200) throw new Error(`catalogue answered ${res.status}: ${JSON.stringify(res.body)}`);
  const [bag] = res.body.data as Json[];
  if (!bag) throw new Error("no bag on sale");
  return bag;
}

/** A free seat of the wanted status (paid or free) on the segment's map. */
export async function seatOf(
  client: HttpClient,
  locator: string,
  segmentId: string,
  status: "paid" | "free",
) {
  const res = await seatMap(client, locator, segmentId);
  if (res.status !== 200) throw new Error(`seat map answered ${res.status}: ${JSON.stringify(res.body)}`);
  const seat = (res.body.data.rows as Json[])
    .flatMap((r) => r.seats as Json[])
    .find((s) => s.status === status);
  if (!seat) throw new Error(`no ${status} seat`);
  return seat;
}

/** The booking's first segment id, from its booking page (asked again while the read model catches up). */
export async function firstSegment(client: HttpClient, locator: string): Promise<string> {
  for (let i = 0; ; i++) {
    const page = await client.get(`/bookings/${locator}`);
    if (page.status === 200) return page.body.data.fare.flights[0].segments[0].id as string;
    if (i >= 200) throw new Error(`booking page answered ${page.status}: ${JSON.stringify(page.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
