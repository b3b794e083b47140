import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { Config } from "@skyward/contracts/config";
import { SupplierCredentials } from "@skyward/contracts/supplier";
import { DomainError } from "@skyward/infra/http/errors";
import type pg from "pg";

/** Outside production only: a fixed key, so a development database's credentials survive restarts. */
const DEVELOPMENT_KEY = createHash("sha256").update("skyward development credentials key").digest();

/** The key credentials are encrypted with; null in production without CREDENTIALS_KEY (storing is then refused). */
export function credentialsKey(config: Pick<Config, "NODE_ENV" | "CREDENTIALS_KEY">): Buffer | null {
  if (config.CREDENTIALS_KEY) return Buffer.from(config.CREDENTIALS_KEY, "hex");
  return config.NODE_ENV === "production" ? null : DEVELOPMENT_KEY;
}

class CredentialsKeyMissing extends DomainError {
  constructor() {
    super(
      503,
      "credentials_key_missing",
      "Not configured",
      "Set CREDENTIALS_KEY to store channel credentials",
    );
  }
}

/**
 * Channel credentials encrypted at rest (AES-256-GCM, a fresh IV per write, the channel id as associated data so a
 * row copied to another channel does not decrypt). Never returned by any route, never in events or logs.
 */
export class ChannelCredentialStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly key: Buffer | null,
  ) {}

  async save(channelId: string, credentials: SupplierCredentials): Promise<void> {
    if (!this.key) throw new CredentialsKeyMissing();
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(channelId));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(credentials), "utf8"), cipher.final()]);
    await this.pool.query(
      `INSERT INTO app.channel_credentials (channel_id, iv, ciphertext, tag) VALUES ($1, $2, $3, $4)
       ON CONFLICT (channel_id) DO UPDATE SET iv = $2, ciphertext = $3, tag = $4, updated_at = now()`,
      [channelId, iv, ciphertext, cipher.getAuthTag()],
    );
  }

  /** The channel's credentials, or null when none were stored (or the key cannot read them). */
  async load(channelId: string): Promise<SupplierCredentials | null> {
    if (!this.key) return null;
    const { rows } = await this.pool.query<{ iv: Buffer; ciphertext: Buffer; tag: Buffer }>(
      "SELECT iv, ciphertext, tag FROM app.channel_credentials WHERE channel_id = $1",
      [channelId],
    );
    const row = rows[0];
    if (!row) return null;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, row.iv);
      decipher.setAAD(Buffer.from(channelId));
      decipher.setAuthTag(row.tag);
      const plain = Buffer.concat([decipher.update(row.ciphertext), decipher.final()]).toString("utf8");
      return SupplierCredentials.parse(JSON.parse(plain));
    } catch {
      return null; // another key, or a tampered row: as good as none
    }
  }
}
