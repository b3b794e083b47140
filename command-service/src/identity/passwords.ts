import { randomBytes } from "node:crypto";
import { hash, verify } from "argon2";
import type pg from "pg";

// Checked when the user or their password does not exist, so such an answer takes as long as a wrong password.
let decoy: Promise<string> | null = null;
const decoyHash = () => {
  decoy ??= hash(randomBytes(32).toString("hex"));
  return decoy;
};

/** Verifies a password against the argon2id hash in `app.credentials`, in the same time whether or not one exists. */
export async function passwordMatches(
  pool: pg.Pool,
  userId: string | null,
  password: string,
): Promise<boolean> {
  const { rows } = userId
    ? await pool.query<{ password_hash: string }>(
        "SELECT password_hash FROM app.credentials WHERE user_id = $1",
        [userId],
      )
    : { rows: [] };
  const stored = rows[0]?.password_hash;
  const matches = await verify(stored ?? (await decoyHash()), password);
  return matches && stored !== undefined;
}

/** The argon2id hash `app.credentials` keeps for a password. */
export const hashPassword = (password: string): Promise<string> => hash(password);
