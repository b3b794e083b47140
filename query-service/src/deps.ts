import type { Config } from "@skyward/contracts/config";
import type { Logger } from "@skyward/infra/logger";
import type pg from "pg";

export interface QueryDeps {
  pool: pg.Pool;
  config: Config;
  logger: Logger;
}
