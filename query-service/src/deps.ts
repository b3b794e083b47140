import type { Config } from "@skyward/contracts/config";
import type { Logger } from "@skyward/infra/logger";
import type { ReadModelWaiter } from "@skyward/infra/projections/read-your-writes";
import type pg from "pg";

export interface QueryDeps {
  pool: pg.Pool;
  config: Config;
  logger: Logger;
  /** How reads wait for read models to pass a client's last write (X-Min-Position). */
  readModels: ReadModelWaiter;
}
