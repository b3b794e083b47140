import { z } from "zod";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no"])
  .transform((v) => v === "1" || v === "true" || v === "yes");

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
    SEED_DEMO: flag.default(true),
    PUBLIC_URL: z.url().optional(),
  })
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
