import os from "node:os";
import { buildMessage } from "./mime.ts";
import type { Mailer, OutgoingMail } from "./port-types.ts";
import { SmtpConnection, type SmtpOptions, SmtpReplyError } from "./smtp-connection.ts";

/** Connections kept open at most (the URL's `maxConnections` otherwise). */
const MAX_CONNECTIONS = 5;
/** A kept connection unused this long is closed (QUIT): servers drop idle clients, some after a minute. */
const IDLE_MS = 30_000;
/** The greeting, and each reply, must come within this. */
const REPLY_TIMEOUT_MS = 60_000;

/**
 * Mail through an SMTP server (`SMTP_URL`, e.g. `smtp://user:pass@smtp.example.com:587`, or `smtps://` for TLS from
 * the start), over connections kept open between mails (up to 5 at once; `?pool=false` opens one per mail): a
 * connection, its greeting and TLS handshake per mail cost more CPU than the mail itself (issue 26). Each message is
 * built whole (mime.ts) and sent over our own connection (smtp-connection.ts). The URL's options as nodemailer read
 * them: `pool`, `maxConnections`, `secure`, `ignoreTLS`, `requireTLS`, `name` (for EHLO) and
 * `tls.rejectUnauthorized=false` (a test server's own certificate).
 */
export class SmtpMailer implements Mailer {
  private readonly options: SmtpOptions;
  private readonly pooled: boolean;
  private readonly maxConnections: number;
  private readonly idle: { connection: SmtpConnection; timer: NodeJS.Timeout }[] = [];
  private readonly waiters: (() => void)[] = [];
  /** Connections open or opening. */
  private open = 0;
  private closed = false;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    const parsed = new URL(url);
    const query = parsed.searchParams;
    const secure = parsed.protocol === "smtps:" || query.get("secure") === "true";
    if (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:")
      throw new Error(`SMTP_URL must be smtp: or smtps:, not ${parsed.protocol}`);
    this.options = {
      host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
      secure,
      ignoreTls: query.get("ignoreTLS") === "true",
      requireTls: query.get("requireTLS") === "true",
      rejectUnauthorized: query.get("tls.rejectUnauthorized") !== "false",
      clientName: query.get("name") ?? (os.hostname().includes(".") ? os.hostname() : "[127.0.0.1]"),
      timeoutMs: REPLY_TIMEOUT_MS,
      ...(parsed.username
        ? { user: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) }
        : {}),
    };
    this.pooled = query.get("pool") !== "false";
    this.maxConnections = Math.max(1, Number(query.get("maxConnections")) || MAX_CONNECTIONS);
  }

  async send(mail: OutgoingMail): Promise<void> {
    const { envelope, raw } = buildMessage(this.from, mail);
    for (let attempt = 1; ; attempt++) {
      const { connection, reused } = await this.take();
      let written = false;
      try {
        await connection.send(envelope, raw, () => {
          written = true;
        });
        this.giveBack(connection);
        return;
      } catch (error) {
        this.giveBack(connection);
        // A kept connection the server closed meanwhile (or is closing, 421): nothing was sent, so once more on a
        // new one. Never after the message was written: the server may have taken it.
        const closedMeanwhile = !(error instanceof SmtpReplyError) || error.code === 421;
        if (reused && !written && closedMeanwhile && attempt === 1) continue;
        throw error;
      }
    }
  }

  /** Closes the kept connections (QUIT); those sending now close when done. */
  close(): void {
    this.closed = true;
    for (const { connection, timer } of this.idle.splice(0)) {
      clearTimeout(timer);
      connection.quit();
      this.open--;
    }
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** A kept connection, or a new one while fewer than the most are open, or the next given back. */
  private async take(): Promise<{ connection: SmtpConnection; reused: boolean }> {
    for (;;) {
      if (this.closed) throw new Error("the SMTP mailer is closed");
      const kept = this.idle.pop();
      if (kept) {
        clearTimeout(kept.timer);
        if (kept.connection.usable) return { connection: kept.connection, reused: true };
        this.open--;
        continue;
      }
      if (this.open < this.maxConnections) {
        this.open++;
        try {
          return { connection: await SmtpConnection.open(this.options), reused: false };
        } catch (error) {
          this.open--;
          this.waiters.shift()?.();
          throw error;
        }
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private giveBack(connection: SmtpConnection): void {
    if (!connection.usable || !this.pooled || this.closed) {
      connection.quit();
      this.open--;
    } else {
      const timer = setTimeout(() => {
        const at = this.idle.findIndex((kept) => kept.connection === connection);
        if (at < 0) return;
        this.idle.splice(at, 1);
        connection.quit();
        this.open--;
      }, IDLE_MS);
      timer.unref();
      this.idle.push({ connection, timer });
    }
    this.waiters.shift()?.();
  }
}
