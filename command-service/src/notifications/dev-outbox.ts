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
  html: string | null;
  attachments: { filename: string; content_type: string; size: number }[];
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
    const attachments = mail.attachments ?? [];
    // The message and its attachments in one statement: a reader never sees the mail without its files.
    await this.pool.query(
      `WITH m AS (INSERT INTO app.dev_outbox (kind, recipient, email, subject, body, html)
                  VALUES ('mail', $1, $1, $2, $3, $4) RETURNING id)
       INSERT INTO app.dev_outbox_attachments (message_id, position, filename, content_type, content)
       SELECT m.id, a.position, a.filename, a.content_type, a.content
         FROM m, unnest($5::text[], $6::text[], $7::bytea[]) WITH ORDINALITY AS a(filename, content_type, content, position)`,
      [
        mail.to.toLowerCase(),
        mail.subject,
        mail.text,
        mail.html ?? null,
        attachments.map((a) => a.filename),
        attachments.map((a) => a.content_type),
        attachments.map((a) => a.content),
      ],
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
      `SELECT id::int AS id, recipient AS to, email, subject, body AS text, to_json(sent_at) #>> '{}' AS sent_at,
              html, coalesce((SELECT json_agg(json_build_object('filename', a.filename,
                  'content_type', a.content_type, 'size', octet_length(a.content)) ORDER BY a.position)
                FROM app.dev_outbox_attachments a WHERE a.message_id = o.id), '[]') AS attachments
         FROM app.dev_outbox o
        WHERE kind = $1 AND ($2::text IS NULL OR recipient = $2 OR email = $2
              -- a phone number matches by its digits, however it is written ("+" arrives as " " in a query)
              OR (strpos($2, '@') = 0 AND regexp_replace(recipient, 'D', '', 'g') = regexp_replace($2, 'D', '', 'g')))
        ORDER BY id DESC LIMIT $3`,
      [kind, to?.trim().toLowerCase() ?? null, limit],
    );
    return rows;
  }

  /** One attachment of a message (1-based, in the order it was attached), or null. */
  async attachment(
    messageId: number,
    position: number,
  ): Promise<{ filename: string; content_type: string; content: Buffer } | null> {
    const { rows } = await this.pool.query<{ filename: string; content_type: string; content: Buffer }>(
      `SELECT filename, content_type, content FROM app.dev_outbox_attachments
        WHERE message_id = $1 AND position = $2`,
      [messageId, position],
    );
    return rows[0] ?? null;
  }
}
