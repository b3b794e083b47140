import { z } from "zod";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no"])
  .transform((v) => v === "1" || v === "true" || v === "yes");

/**
 * Which proxies are trusted to say who the client is (Express `trust proxy`): `false` (none: the socket's peer is
 * the client), a hop count, or a comma-separated list of addresses, subnets and Express's names (`loopback`, ...).
 * Never `true`: trusting every hop lets any client pick its own address.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): false | number | string[] => {
    if (v === "" || v === "false" || v === "0") return false;
    if (/^[1-9]$/.test(v)) return Number(v);
    const entries = v.split(",").map((e) => e.trim());
    const valid = entries.every(
      (e) => ["loopback", "linklocal", "uniquelocal"].includes(e) || /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(e),
    );
    if (!valid) {
      ctx.addIssue({
        code: "custom",
        message: "give false, a hop count (1-9), or addresses, subnets and loopback/linklocal/uniquelocal",
      });
      return z.NEVER;
    }
    return entries;
  });

/** The supplier port's calls (command-service/src/suppliers/supplier.ts), each of which may have its own deadline. */
export const SUPPLIER_CALLS = [
  "checkCredentials",
  "search",
  "offerDetails",
  "fareRules",
  "price",
  "ancillaryCatalogue",
  "seatMap",
  "book",
  "retrieve",
  "reprice",
  "issue",
  "orderAncillaries",
  "refundEmd",
  "void",
  "cancel",
  "operationOutcome",
  "refundQuote",
  "refundConfirm",
  "reshop",
  "reissue",
  "scheduleChange",
  "answerScheduleChange",
] as const;
export type SupplierCallName = (typeof SUPPLIER_CALLS)[number];

const MAX_SUPPLIER_TIMEOUT_MS = 600_000;

/** Per-call deadlines, `issue=60000,search=15000` (milliseconds), over SUPPLIER_TIMEOUT_MS. */
const supplierTimeouts = z
  .string()
  .trim()
  .transform((v, ctx): Partial<Record<SupplierCallName, number>> => {
    const timeouts: Partial<Record<SupplierCallName, number>> = {};
    for (const entry of v.split(",").filter((e) => e.trim() !== "")) {
      const [name, ms] = entry.split("=").map((p) => p.trim());
      const call = SUPPLIER_CALLS.find((c) => c === name);
      const value = Number(ms);
      if (!call || !Number.isInteger(value) || value < 1 || value > MAX_SUPPLIER_TIMEOUT_MS) {
        ctx.addIssue({
          code: "custom",
          message: `"${entry.trim()}": give call=milliseconds (1 to ${MAX_SUPPLIER_TIMEOUT_MS}), calls: ${SUPPLIER_CALLS.join(", ")}`,
        });
        return z.NEVER;
      }
      timeouts[call] = value;
    }
    return timeouts;
  });

/** Process configuration, read from the environment once at start. */
export const Config = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    HOST: z.string().default("127.0.0.1"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATABASE_URL: z.url().optional(),
    DATA_DIR: z.string().optional(),
    /** The embedded PostgreSQL's port; a free one when unset. */
    PGPORT: z.coerce.number().int().min(1).max(65535).optional(),
    SESSION_SECRET: z.string().min(32).optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    SMTP_URL: z.url().optional(),
    MAIL_FROM: z.string().default("Skyward <no-reply@skyward.test>"),
    /** Seed the demo world; off by default in production. */
    SEED_DEMO: flag.optional(),
    /** Serve `/dev/mailbox` and `/dev/voice`: on only when asked for (`npm start`, the test runner), never in production. */
    DEV_MAILBOX: flag.optional(),
    TRUST_PROXY: trustProxy.default(false),
    PUBLIC_URL: z.url().optional(),
    /** Product analytics (Amplitude) key the page hands the browser SDK; without it nothing leaves the browser. */
    ANALYTICS_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,128}$/, "letters, digits, - and _ only")
      .optional(),
    /** Where the SDK sends events instead of Amplitude's US endpoint: the EU one or a self-hosted proxy. */
    ANALYTICS_SERVER_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Test runs only: the share of sessions replayed (production keeps the spec's 10 %). */
    ANALYTICS_REPLAY_SAMPLE_RATE: z.coerce.number().min(0).max(1).optional(),
    /** How long any supplier call may take before the request answers without it (an operation: being completed). */
    SUPPLIER_TIMEOUT_MS: z.coerce.number().int().min(1).max(MAX_SUPPLIER_TIMEOUT_MS).default(30_000),
    SUPPLIER_TIMEOUTS: supplierTimeouts.optional(),
    /** How often readiness tries a write of its own while the database's disk is not known to be full. */
    STORAGE_PROBE_EVERY_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
    /** A supplier operation still open this long has lost its caller: the reconcile job completes or undoes it. */
    OPERATION_STALE_AFTER_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
    /**
     * The AI assistant's balance steps above this amount (minor units, any currency) run only once the user types
     * the amount again (issue 25): 1,000,000 = 10 000.00.
     */
    ASSISTANT_RETYPE_ABOVE: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(1_000_000),
    /**
     * The key (64 hex digits: 32 bytes) channel credentials are encrypted with at rest; outside production a fixed
     * development key stands in, in production storing credentials is refused until it is set.
     */
    /**
     * The bearer token `/metrics` asks of its scraper. Outside production `/metrics` is open without it; in
     * production it is not served at all unless this is set (issue 30).
     */
    /**
     * The scheduling priority (nice, 0 to 19) a process running only background jobs (`ROLES=jobs`: PDFs, mails,
     * invoices) lowers itself to, so their CPU yields to requests on a shared machine (issue 26); 0 keeps it equal.
     */
    JOBS_NICE: z.coerce.number().int().min(0).max(19).default(10),
    /** Off only to measure what the metrics cost (the booking-flow benchmark's baseline). */
    METRICS_ENABLED: flag.default(true),
    METRICS_TOKEN: z
      .string()
      .regex(/^[A-Za-z0-9._~+/=-]{16,256}$/, "16 to 256 token characters (letters, digits, ._~+/=-)")
      .optional(),
    /** Where traces go over OTLP/HTTP (`http://collector:4318`); no tracing at all when unset (issue 30). */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    CREDENTIALS_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hexadecimal digits (32 bytes)")
      .optional(),
  })
  .refine((c) => c.NODE_ENV !== "production" || c.ANALYTICS_REPLAY_SAMPLE_RATE === undefined, {
    message: "the session replay sample rate is fixed at 10 % in production",
    path: ["ANALYTICS_REPLAY_SAMPLE_RATE"],
  })
  .refine((c) => c.NODE_ENV !== "production" || c.DEV_MAILBOX !== true, {
    message: "the dev mailbox cannot be enabled in production",
    path: ["DEV_MAILBOX"],
  })
  .transform((c) => ({
    ...c,
    SEED_DEMO: c.SEED_DEMO ?? c.NODE_ENV !== "production",
    // The test runner (Jest sets NODE_ENV=test) reads codes from the mailbox; a plain development process does not.
    DEV_MAILBOX: c.DEV_MAILBOX ?? c.NODE_ENV === "test",
  }))
  .refine((c) => c.NODE_ENV !== "production" || c.SESSION_SECRET, {
    message: "SESSION_SECRET (32+ characters) is required in production",
    path: ["SESSION_SECRET"],
  });
export type Config = z.infer<typeof Config>;

/** What a running embedded PostgreSQL records beside its data (`<DATA_DIR>/skyward-server.json`). */
export const EmbeddedServerRecord = z.object({
  port: z.number().int().min(1).max(65535),
  /** The postmaster's process id. */
  pid: z.number().int().positive(),
  /** The process that started it, and when that process started (a reused pid then does not match). */
  owner: z.object({ pid: z.number().int().positive(), started: z.string() }),
  started_at: z.string(),
});
export type EmbeddedServerRecord = z.infer<typeof EmbeddedServerRecord>;
