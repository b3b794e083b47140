// The itinerary mail names the agency that sold the booking, folded from the directory cache's copy of its stream once
// per read of that stream, not once per mail (issue 26: each fold parsed every agency event with zod, 3 % of the jobs
// process's CPU in the flow bench with after-sales).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import type { ActiveBooking } from "@skyward/command-service/bookings/booking";
import {
  type ComposeDeps,
  composeItineraryMail,
  type SellingAgent,
} from "@skyward/command-service/itinerary/compose";
import { directoryFolds } from "@skyward/command-service/offers/selling-context";
import type { ItineraryMailed } from "@skyward/contracts/itinerary";
import { createPool } from "@skyward/infra/db";
import type { StoredEvent } from "@skyward/infra/event-store/types";

// A real issued booking as the flow bench took it (one passenger, a sandbox KBP → WAW fare, its ticket).
const issued = JSON.parse(
  readFileSync(new URL("../bench/data/issued-booking.json", import.meta.url), "utf8"),
) as { booking: ActiveBooking; mail: ItineraryMailed; agent: SellingAgent };

const agencyEvent = (type: string, position: number, data: Record<string, unknown>): StoredEvent => ({
  globalPosition: BigInt(position),
  transactionId: 1n,
  streamId: `agency-${issued.booking.agency_id}`,
  streamPosition: position,
  eventId: `00000000-0000-4000-8000-00000000000${position}`,
  type,
  data,
  metadata: {} as StoredEvent["metadata"],
  recordedAt: new Date(),
});

describe("the seller of an itinerary mail", () => {
  it("when two mails of one agency are composed from one read of its stream, then the stream is folded once and both mails are signed with the agency's current name", async () => {
    const agency = issued.booking.agency_id;
    // As the directory cache hands it out: the same array while its entry lives.
    const events = [
      agencyEvent("AgencyRegistered", 1, { agency_id: agency, name: "Dnipro Travel" }),
      agencyEvent("AgencyUpdated", 2, { agency_id: agency, name: "Dnipro Travel & Tours" }),
    ];
    let reads = 0;
    const deps: ComposeDeps = {
      directory: {
        readStreams: async (ids) => {
          reads++;
          return new Map(ids.map((id) => [id, id === `agency-${agency}` ? events : []]));
        },
      },
      // Never asked: the agent is given, as the batch job gives it.
      pool: createPool("postgres://test@127.0.0.1:1/unused", { max: 1 }),
    };
    const before = directoryFolds();
    const mails = [];
    for (const [i, locator] of ["SELLR1", "SELLR2"].entries())
      mails.push(
        await composeItineraryMail(
          deps,
          { ...issued.booking, locator },
          { ...issued.mail, locator, language: i === 0 ? "en" : "ua" },
          issued.agent,
        ),
      );
    expect(reads).toBe(2);
    expect(directoryFolds() - before).toBe(1);
    for (const mail of mails) {
      expect(mail.text).toContain("Dnipro Travel & Tours");
      expect(mail.html).toContain("Dnipro Travel &amp; Tours");
    }
    await deps.pool.end();
  });
});
