import type { Config } from "@skyward/contracts/config";
import { NotFound } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import type { Logger } from "@skyward/infra/logger";
import { type Request, Router } from "express";
import type pg from "pg";
import { z } from "zod";
import { DevOutbox } from "./dev-outbox.ts";

const OutboxQuery = z.object({ to: z.string().trim().min(1).max(254).optional() });

const AttachmentParams = z.object({
  id: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 53),
  position: z.coerce.number().int().min(1).max(1000),
});

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);
const FORWARDING_HEADERS = [
  "forwarded",
  "x-forwarded-for",
  "x-real-ip",
  "x-forwarded-host",
  "x-forwarded-proto",
  "via",
];

/**
 * The socket's own peer, not `req.ip`, and no proxy in between: behind a proxy on this machine every caller's
 * socket is loopback, and a proxy announces itself with a forwarding header.
 */
function requireLocalCaller(req: Request): void {
  const forwarded = FORWARDING_HEADERS.some((h) => req.headers[h] !== undefined);
  if (forwarded || !LOOPBACK.has(req.socket.remoteAddress ?? ""))
    throw new NotFound(`No route for ${req.method} ${req.path}`, "route_not_found");
}

/**
 * What the dev outbox holds (mail at `/dev/mailbox`, voice calls at `/dev/voice`), newest first. Mounted only
 * when DEV_MAILBOX is on (never in production, which the configuration refuses), and answered only to callers on
 * this machine that come through no proxy.
 */
export function devOutboxRoutes(deps: { pool: pg.Pool; logger: Logger; config: Config }): Router {
  const router = Router();
  if (!deps.config.DEV_MAILBOX || deps.config.NODE_ENV === "production") return router;
  const outbox = new DevOutbox(deps.pool, deps.logger);

  router.get("/dev/mailbox", async (req, res) => {
    requireLocalCaller(req);
    const { to } = parseInput(OutboxQuery, req.query, "query");
    const messages = await outbox.list("mail", to);
    res.json({
      // HTML and attachments only on the mails that have them (the itinerary): the others read as before.
      data: messages.map(({ id, to, subject, text, sent_at, html, attachments }) => ({
        id,
        to,
        subject,
        text,
        sent_at,
        ...(html ? { html } : {}),
        ...(attachments.length > 0
          ? {
              attachments: attachments.map((a, i) => ({
                ...a,
                url: `/dev/mailbox/${id}/attachments/${i + 1}`,
              })),
            }
          : {}),
      })),
    });
  });

  router.get("/dev/mailbox/:id/attachments/:position", async (req, res) => {
    requireLocalCaller(req);
    const { id, position } = parseInput(AttachmentParams, req.params, "params");
    const file = await outbox.attachment(id, position);
    if (!file) throw new NotFound("No such attachment", "attachment_not_found");
    res.setHeader("Content-Type", file.content_type);
    res.setHeader("Content-Disposition", `attachment; filename="${file.filename}"`);
    res.send(file.content);
  });

  router.get("/dev/voice", async (req, res) => {
    requireLocalCaller(req);
    const { to } = parseInput(OutboxQuery, req.query, "query");
    const calls = await outbox.list("voice", to);
    res.json({ data: calls.map(({ id, to, email, text, sent_at }) => ({ id, to, email, text, sent_at })) });
  });

  return router;
}
