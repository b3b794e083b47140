import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { SealedPersonalData } from "@skyward/contracts/travellers";
import type pg from "pg";

/**
 * Crypto-shredding for travellers (issue 23, item 6): each traveller's personal fields are sealed with a key of its
 * own, kept in app.traveller_keys, never in an event. Destroying the key erases the fields everywhere they were
 * stored, the event store included, without touching a stored event (so the hash chain still verifies).
 */
const ALGORITHM = "aes-256-cbc";

/** A fresh key for a new traveller, stored before any event names it. */
export async function createTravellerKey(
  db: pg.Pool | pg.PoolClient,
  travellerId: string,
  companyId: string,
): Promise<Buffer> {
  const key = randomBytes(32);
  await db.query("INSERT INTO app.traveller_keys (traveller_id, company_id, key) VALUES ($1, $2, $3)", [
    travellerId,
    companyId,
    key,
  ]);
  return key;
}

/** The traveller's key; null once erased (or never made). */
export async function travellerKey(db: pg.Pool | pg.PoolClient, travellerId: string): Promise<Buffer | null> {
  const { rows } = await db.query<{ key: Buffer }>(
    "SELECT key FROM app.traveller_keys WHERE traveller_id = $1",
    [travellerId],
  );
  return rows[0]?.key ?? null;
}

/** Destroys the key: every sealed field of the traveller is unreadable from then on. */
export async function destroyTravellerKey(db: pg.Pool | pg.PoolClient, travellerId: string): Promise<void> {
  await db.query("DELETE FROM app.traveller_keys WHERE traveller_id = $1", [travellerId]);
}

export function seal(key: Buffer, value: unknown): SealedPersonalData {
  const iv = randomBytes(16);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return { alg: ALGORITHM, iv: iv.toString("base64"), ciphertext: ciphertext.toString("base64") };
}

export function unseal(key: Buffer, sealed: SealedPersonalData): unknown {
  const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(sealed.iv, "base64"));
  const plain = Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, "base64")), decipher.final()]);
  return JSON.parse(plain.toString("utf8"));
}

/**
 * SQL that unseals a sealed value (`ivParam`, `ciphertextParam`: base64 text) with the key of `travellerParam`, as
 * jsonb; NULL when the key is gone. The same AES-256-CBC with PKCS#7 padding as `seal` (pgcrypto).
 */
export const unsealSql = (travellerParam: string, ivParam: string, ciphertextParam: string): string =>
  `(SELECT convert_from(decrypt_iv(decode(${ciphertextParam}, 'base64'), k.key, decode(${ivParam}, 'base64'),
     'aes-cbc/pad:pkcs'), 'UTF8')::jsonb FROM app.traveller_keys k WHERE k.traveller_id = ${travellerParam})`;
