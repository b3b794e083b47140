import type { Config } from "@skyward/contracts/config";
import type { EventStore } from "@skyward/infra/event-store/event-store";
import type { StreamLocks } from "@skyward/infra/event-store/stream-locks";
import type { Logger } from "@skyward/infra/logger";
import type { Projection } from "@skyward/infra/projections/projection";
import type pg from "pg";
import type { SignInLimits } from "./identity/rate-limits.ts";
import type { CommandJobs } from "./jobs/specs.ts";
import type { SearchResults } from "./offers/search-results.ts";
import type { DirectoryCache } from "./offers/selling-context.ts";
import type { Supplier } from "./suppliers/supplier.ts";

export interface CommandDeps {
  pool: pg.Pool;
  store: EventStore;
  config: Config;
  logger: Logger;
  /** Injected clock: deciders take time from the command, never from Date.now(). */
  now: () => Date;
  /** Overrides of the sign-in rate limits (tests that sign in many times). */
  rateLimits?: Partial<SignInLimits>;
  /** The airline content source of the ticketing channels (the built-in sandbox here). */
  supplier: Supplier;
  /** Result pages agents book from. */
  searches: SearchResults;
  /** Companies, agencies, channels and gates as selling contexts need them. */
  directory: DirectoryCache;
  /** Turns at contended streams (company balances) for this process's commands. */
  streamLocks: StreamLocks;
  /** Background jobs (specs in command-service/src/jobs/specs.ts, handlers in registry.ts): expiry, confirmation, reconciliation, mail. */
  jobs: CommandJobs;
  /** The projections the audit screen may replay side by side (injected: command-service never imports projectors). */
  replayable?: readonly Projection[];
}
