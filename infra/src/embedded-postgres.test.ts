import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { createPool } from "./db.ts";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";

describe("the embedded PostgreSQL launcher", () => {
  it("when started on a data folder, stopped and started again, then the data is still there and the folder private", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "skyward-embedded-"));
    try {
      const first = await startEmbeddedPostgres({ dataDir, fsync: false });
      let pool = createPool(first.url, { max: 1 });
      await pool.query("CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)");
      await pool.end();
      await first.stop();
      expect((await stat(dataDir)).mode & 0o777).toBe(0o700);

      const second = await startEmbeddedPostgres({ dataDir, fsync: false });
      pool = createPool(second.url, { max: 1 });
      const { rows } = await pool.query("SELECT n FROM kept");
      await pool.end();
      await second.stop();
      expect(rows).toEqual([{ n: 42 }]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
