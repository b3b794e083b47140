import type { Config } from "@skyward/contracts/config";
import type { EventStore } from "@skyward/infra/event-store/event-store";
import type { Logger } from "@skyward/infra/logger";
import type pg from "pg";

export interface CommandDeps {
  pool: pg.Pool;
  store: EventStore;
  config: Config;
  logger: Logger;
  /** Injected clock: deciders take time from the command, never from Date.now(). */
  now: () => Date;
}
