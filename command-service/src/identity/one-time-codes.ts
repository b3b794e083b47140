import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { ONE_TIME_CODE } from "@skyward/contracts/account";
import type pg from "pg";

export type CodePurpose = "sign_in" | "email_change";
export type CodeChannel = "email" | "voice";

export interface IssuedCode {
  email: string;
  purpose: CodePurpose;
  /** Null for an address nobody owns: it gets a code all the same, so answers do not reveal who has an account. */
  userId: string | null;
  newEmail?: string;
  channel: CodeChannel;
  /** The browser that asked for it (a hash): only there does the code count, and no one else's request replaces it. */
  holder?: string;
}

export type CodeCheck =
  | { ok: true; userId: string; newEmail: string | null; channel: CodeChannel }
  | { ok: false; reason: "no_code" | "code_expired" | "code_locked"; channel: CodeChannel }
  | { ok: false; reason: "wrong_code"; attemptsLeft: number; channel: CodeChannel };

interface CodeRow {
  code_hash: string;
  attempts: number;
  user_id: string | null;
  new_email: string | null;
  channel: CodeChannel;
}

/**
 * Six-digit one-time codes in `app.otp_codes`, one live code per address, purpose and holder (the `purpose` column
 * keeps `purpose:holder`, so a stranger's request makes a code of its own instead of replacing the owner's). Only an HMAC of the code
 * under a server pepper is stored: a 10-minute, 5-attempt code needs no slow hash, and a database leak alone does
 * not give the codes away. Every attempt is counted before it is compared, so parallel guesses cannot overrun.
 */
const slot = (purpose: CodePurpose, holder: string | undefined) =>
  holder ? `${purpose}:${holder}` : purpose;

export class OneTimeCodes {
  constructor(
    private readonly pool: pg.Pool,
    private readonly pepper: string,
  ) {}

  private digest(purpose: CodePurpose, email: string, newEmail: string | null | undefined, code: string) {
    return createHmac("sha256", this.pepper)
      .update(`${purpose}\n${email}\n${newEmail ?? ""}\n${code}`)
      .digest("hex");
  }

  /** A fresh code replaces the holder's previous one for the address (and its attempt count). */
  async issue(code: IssuedCode, now: Date): Promise<string> {
    const value = randomInt(0, 10 ** ONE_TIME_CODE.digits)
      .toString()
      .padStart(ONE_TIME_CODE.digits, "0");
    const expiresAt = new Date(now.getTime() + ONE_TIME_CODE.ttlMinutes * 60_000);
    await this.pool.query(
      `INSERT INTO app.otp_codes (email, purpose, code_hash, user_id, new_email, expires_at, attempts, channel, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8)
       ON CONFLICT (email, purpose) DO UPDATE SET code_hash = EXCLUDED.code_hash, user_id = EXCLUDED.user_id,
         new_email = EXCLUDED.new_email, expires_at = EXCLUDED.expires_at, attempts = 0,
         channel = EXCLUDED.channel, created_at = EXCLUDED.created_at`,
      [
        code.email,
        slot(code.purpose, code.holder),
        this.digest(code.purpose, code.email, code.newEmail, value),
        code.userId,
        code.newEmail ?? null,
        expiresAt,
        code.channel,
        now,
      ],
    );
    return value;
  }

  /** Checks an attempt; the right code is consumed, a wrong one uses up one of the code's attempts. */
  async check(
    input: { email: string; purpose: CodePurpose; newEmail?: string; attempt: string; holder?: string },
    now: Date,
  ): Promise<CodeCheck> {
    const key = slot(input.purpose, input.holder);
    const { rows } = await this.pool.query<CodeRow>(
      `UPDATE app.otp_codes SET attempts = attempts + 1
        WHERE email = $1 AND purpose = $2 AND attempts < $3 AND expires_at > $4
        RETURNING code_hash, attempts, user_id, new_email, channel`,
      [input.email, key, ONE_TIME_CODE.maxAttempts, now],
    );
    const row = rows[0];
    if (!row) return this.whyNoLiveCode(input.email, key);
    const given = Buffer.from(this.digest(input.purpose, input.email, input.newEmail, input.attempt));
    const matches = timingSafeEqual(given, Buffer.from(row.code_hash));
    if (matches && row.user_id) {
      const consumed = await this.pool.query(
        "DELETE FROM app.otp_codes WHERE email = $1 AND purpose = $2 AND code_hash = $3",
        [input.email, key, row.code_hash],
      );
      // A parallel request with the same code got there first: one code, one sign-in.
      if (consumed.rowCount === 1)
        return { ok: true, userId: row.user_id, newEmail: row.new_email, channel: row.channel };
      return { ok: false, reason: "no_code", channel: row.channel };
    }
    const attemptsLeft = ONE_TIME_CODE.maxAttempts - row.attempts;
    if (attemptsLeft <= 0) return { ok: false, reason: "code_locked", channel: row.channel };
    return { ok: false, reason: "wrong_code", attemptsLeft, channel: row.channel };
  }

  private async whyNoLiveCode(email: string, purpose: string): Promise<CodeCheck> {
    const { rows } = await this.pool.query<{ attempts: number; channel: CodeChannel }>(
      "SELECT attempts, channel FROM app.otp_codes WHERE email = $1 AND purpose = $2",
      [email, purpose],
    );
    const row = rows[0];
    if (!row) return { ok: false, reason: "no_code", channel: "email" };
    if (row.attempts >= ONE_TIME_CODE.maxAttempts)
      return { ok: false, reason: "code_locked", channel: row.channel };
    return { ok: false, reason: "code_expired", channel: row.channel };
  }

  /** Every holder's code for the address and purpose. */
  async discard(email: string, purpose: CodePurpose): Promise<void> {
    await this.pool.query(
      "DELETE FROM app.otp_codes WHERE email = $1 AND (purpose = $2 OR starts_with(purpose, $2 || ':'))",
      [email, purpose],
    );
  }

  /** Codes expired for a day are of no further use, not even for an error message. */
  async prune(now: Date): Promise<void> {
    await this.pool.query("DELETE FROM app.otp_codes WHERE expires_at < $1", [
      new Date(now.getTime() - 86_400_000),
    ]);
  }
}
