import type { Config } from "@skyward/contracts/config";
import type { Logger } from "@skyward/infra/logger";
import type pg from "pg";
import { QueuedMailer } from "../jobs/queued-mailer.ts";
import type { CommandJobs } from "../jobs/registry.ts";
import { DevOutbox } from "./dev-outbox.ts";
import { SmtpMailer } from "./smtp-mailer.ts";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The request that sent it, for the log lines of its delivery. */
  traceId?: string;
}

/** Sends e-mail. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

export interface OutgoingCall {
  /** Phone number in international format. */
  to: string;
  /** The account's e-mail, so a call can be found by either. */
  email: string;
  /** What the call says. */
  text: string;
}

/** Places automated voice calls. */
export interface VoiceCaller {
  call(call: OutgoingCall): Promise<void>;
}

export interface NotificationPorts {
  mailer: Mailer;
  voice: VoiceCaller;
}

/**
 * SMTP when `SMTP_URL` is configured, otherwise the dev outbox (kept in PostgreSQL, readable at `/dev/mailbox`
 * outside production, and logged). No voice provider is wired in yet, so calls always go to the dev outbox.
 */
export function notificationPorts(deps: {
  config: Config;
  pool: pg.Pool;
  logger: Logger;
  /** With a queue, mail goes out as a `send-mail` job (retried while the server fails) through these same ports. */
  jobs?: CommandJobs;
}): NotificationPorts {
  const outbox = new DevOutbox(deps.pool, deps.logger);
  return {
    mailer: deps.jobs
      ? new QueuedMailer(deps.jobs)
      : deps.config.SMTP_URL
        ? new SmtpMailer(deps.config.SMTP_URL, deps.config.MAIL_FROM)
        : outbox,
    voice: outbox,
  };
}
