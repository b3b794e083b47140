import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { Config } from "@skyward/contracts/config";
import { SupplierCredentials } from "@skyward/contracts/supplier";
import { DomainError } from "@skyward/infra/http/errors";
import { LRUCache } from "lru-cache";
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

/** The sandbox's own sign-in: what a channel with no stored credentials (the seeded sandbox channels) calls with. */
export const SANDBOX_OWN_CREDENTIALS: SupplierCredentials = { login: "sandbox", password: "sandbox" };

class CredentialsUnreadable extends DomainError {
  constructor() {
    super(
      409,
      "credentials_unreadable",
      "Credentials unreadable",
      "The channel's credentials cannot be read with this server's key: enter them again",
    );
  }
}

/**
 * The credentials every supplier call of a channel signs in with, decrypted once per channel stream version: storing
 * credentials appends ChannelCredentialsReplaced to that stream, so a selling context folded after it carries a
 * newer version and misses here (in this process or any other), while every search and booking in between reads no
 * row. The row is saved before that event is appended, so a version is never cached with older credentials.
 */
export class ChannelCredentialsCache {
  private readonly entries: LRUCache<string, { version: number; credentials: SupplierCredentials }>;
  /** Rows read so far (tests check the cache spares them). */
  loads = 0;

  constructor(
    private readonly store: ChannelCredentialStore,
    options: { capacity?: number } = {},
  ) {
    this.entries = new LRUCache({ max: options.capacity ?? 10_000 });
  }

  /** The channel's credentials as of `version` of its stream; the sandbox's own when none were ever stored. */
  async forChannel(channel: {
    id: string;
    version: number;
    credential_set: boolean;
  }): Promise<SupplierCredentials> {
    if (!channel.credential_set) return SANDBOX_OWN_CREDENTIALS;
    const hit = this.entries.get(channel.id);
    if (hit && hit.version === channel.version) return hit.credentials;
    this.loads++;
    const credentials = await this.store.load(channel.id);
    if (!credentials) throw new CredentialsUnreadable();
    const latest = this.entries.get(channel.id);
    if (!latest || latest.version <= channel.version)
      this.entries.set(channel.id, { version: channel.version, credentials });
    return credentials;
  }
}
