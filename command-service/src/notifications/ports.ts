import type { Config } from "@skyward/contracts/config";
import type { Logger } from "@skyward/infra/logger";
import type pg from "pg";
import { QueuedMailer } from "../jobs/queued-mailer.ts";
import type { CommandJobs } from "../jobs/specs.ts";
import { DevOutbox } from "./dev-outbox.ts";
import type { Mailer, NotificationPorts, OutgoingMail } from "./port-types.ts";
import { SmtpMailer } from "./smtp-mailer.ts";

export type { Mailer, NotificationPorts, OutgoingCall, OutgoingMail, VoiceCaller } from "./port-types.ts";

/**
 * Stands in for a provider production was started without: it sends nothing and logs that it did not, never what
 * the message said (it would carry a sign-in code).
 */
class NotConfigured implements Mailer {
  constructor(private readonly logger: Logger) {}

  async send(mail: OutgoingMail): Promise<void> {
    this.logger.warn({ subject: mail.subject }, "mail transport not configured (SMTP_URL): message not sent");
  }
}

/**
 * SMTP when `SMTP_URL` is configured. Outside production, the dev outbox stands in for SMTP and for the voice
 * provider (kept in PostgreSQL, readable at `/dev/mailbox` when DEV_MAILBOX is on, and shown on the console). In
 * production nothing is ever kept or logged in their place: mail without SMTP_URL is not sent, and as no voice
 * provider is wired in yet, there is no voice port.
 */
export function notificationPorts(deps: {
  config: Config;
  pool: pg.Pool;
  logger: Logger;
  /** With a queue, mail goes out as a `send-mail` job (retried while the server fails) through these same ports. */
  jobs?: CommandJobs;
}): NotificationPorts {
  const production = deps.config.NODE_ENV === "production";
  if (production && !deps.config.SMTP_URL)
    deps.logger.warn("SMTP_URL is not set: no e-mail (sign-in codes included) will be sent");
  const outbox = production ? null : new DevOutbox(deps.pool, deps.logger);
  return {
    mailer: deps.jobs
      ? new QueuedMailer(deps.jobs)
      : deps.config.SMTP_URL
        ? new SmtpMailer(deps.config.SMTP_URL, deps.config.MAIL_FROM)
        : (outbox ?? new NotConfigured(deps.logger)),
    voice: outbox,
  };
}
