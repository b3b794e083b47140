import type { Logger } from "@skyward/infra/logger";
import type pg from "pg";
import type { Mailer, OutgoingCall, OutgoingMail, VoiceCaller } from "./port-types.ts";

export interface OutboxMessage {
  id: number;
  to: string;
  email: string | null;
  subject: string | null;
  text: string;
  sent_at: string;
}

/**
 * Where mail and calls go when no provider is configured: kept in `app.dev_outbox` so a developer (or a test)
 * can read them at `/dev/mailbox` and `/dev/voice`, and logged so they show on the console.
 */
export class DevOutbox implements Mailer, VoiceCaller {
  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    await this.pool.query(
      "INSERT INTO app.dev_outbox (kind, recipient, email, subject, body) VALUES ('mail', $1, $1, $2, $3)",
      [mail.to.toLowerCase(), mail.subject, mail.text],
    );
    this.logger.info({ to: mail.to, subject: mail.subject }, `dev mailbox: ${mail.text}`);
  }

  async call(call: OutgoingCall): Promise<void> {
    await this.pool.query(
      "INSERT INTO app.dev_outbox (kind, recipient, email, body) VALUES ('voice', $1, $2, $3)",
      [call.to, call.email.toLowerCase(), call.text],
    );
    this.logger.info({ to: call.to, email: call.email }, `dev voice call: ${call.text}`);
  }

  /** Newest first; `to` matches the recipient (address or phone) or the account's e-mail. */
  async list(kind: "mail" | "voice", to: string | undefined, limit = 50): Promise<OutboxMessage[]> {
    const { rows } = await this.pool.query<OutboxMessage>(
      `SELECT id::int AS id, recipient AS to, email, subject, body AS text, to_json(sent_at) #>> '{}' AS sent_at
         FROM app.dev_outbox
        WHERE kind = $1 AND ($2::text IS NULL OR recipient = $2 OR email = $2
              -- a phone number matches by its digits, however it is written ("+" arrives as " " in a query)
              OR (strpos($2, '@') = 0 AND regexp_replace(recipient, 'D', '', 'g') = regexp_replace($2, 'D', '', 'g')))
        ORDER BY id DESC LIMIT $3`,
      [kind, to?.trim().toLowerCase() ?? null, limit],
    );
    return rows;
  }
}
