import { Locator } from "@skyward/contracts/bookings";
import type { ItineraryMail } from "@skyward/contracts/itinerary";
import { requirePrincipal } from "@skyward/infra/http/auth";
import { NotFound } from "@skyward/infra/http/errors";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { Router } from "express";
import type { QueryDeps } from "../deps.ts";
import { bookingScope } from "../scope.ts";

export function itineraryRoutes({ pool, readModels }: QueryDeps): Router {
  const router = Router();
  const fresh = freshReadModels(readModels, ["itinerary_mails", "bookings"]);

  /** The itinerary e-mails of a booking the caller may see, oldest first: its page's history of sends. */
  router.get("/bookings/:locator/itinerary_mails", fresh, async (req, res) => {
    const p = requirePrincipal(req);
    const locator = Locator.safeParse(req.params.locator);
    if (!locator.success) throw new NotFound("No such booking", "booking_not_found");
    const scope = bookingScope(p, 1);
    const booking = await pool.query<{ one: number }>(
      `SELECT 1 AS one FROM read.bookings b WHERE b.locator = $1 AND ${scope.sql}`,
      [locator.data, ...scope.params],
    );
    if (booking.rowCount === 0) throw new NotFound("No such booking", "booking_not_found");
    const { rows } = await pool.query<{
      mail_id: string;
      recipient: string;
      note: string | null;
      language: ItineraryMail["language"];
      reason: ItineraryMail["reason"];
      by_email: string | null;
      at: Date;
    }>(
      `SELECT mail_id, recipient, note, language, reason, by_email, at FROM read.itinerary_mails
        WHERE locator = $1 ORDER BY at, mail_id`,
      [locator.data],
    );
    const data: ItineraryMail[] = rows.map((r) => ({
      mail_id: r.mail_id,
      to: r.recipient,
      note: r.note,
      language: r.language,
      reason: r.reason,
      by_email: r.by_email,
      at: r.at.toISOString(),
    }));
    res.json({ data });
  });

  return router;
}
