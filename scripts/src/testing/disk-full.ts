import { execFile } from "node:child_process";
import { chown, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createPool, type Queryable } from "@skyward/infra/db";

const run = promisify(execFile);

/**
 * A disk that fills up under some of a test database's tables, the way a real one does (issue 29):
 *  - "tmpfs": the tables are moved to a tablespace on a small tmpfs; `fill` writes a file until the tmpfs has no
 *    space left, so PostgreSQL's next extension of those tables fails with its real error (53100, "could not extend
 *    file ...: No space left on device"); `free` deletes the file. Needs `mount` (root, as here and in CI).
 *  - "trigger": where mounting is not allowed (or SKYWARD_DISK_FULL=trigger), a trigger on those tables raises the
 *    same SQLSTATE and message for every insert while "full". Only the error path is the same: rows that still fit
 *    in a page already allocated would be refused too.
 * The WAL stays on the server's own disk, so the server keeps running (a full WAL disk crashes it: fault 1).
 */
export interface SmallDisk {
  mode: "tmpfs" | "trigger";
  fill(): Promise<void>;
  free(): Promise<void>;
  /** After the database is dropped: removes the tablespace and unmounts. */
  close(): Promise<void>;
}

async function postgresOwner(): Promise<{ uid: number; gid: number }> {
  const { stdout } = await run("id", ["postgres"]).catch(() => ({ stdout: "" }));
  const uid = Number(/uid=(\d+)/.exec(stdout)?.[1] ?? process.getuid?.() ?? 0);
  const gid = Number(/gid=(\d+)/.exec(stdout)?.[1] ?? process.getgid?.() ?? 0);
  return { uid, gid };
}

async function mountTmpfs(sizeKb: number): Promise<string | null> {
  if (process.env.SKYWARD_DISK_FULL === "trigger") return null;
  const dir = await mkdtemp(join(tmpdir(), "skyward-small-disk-"));
  try {
    const { uid, gid } = await postgresOwner();
    await run("mount", [
      "-t",
      "tmpfs",
      "-o",
      `size=${sizeKb}k,uid=${uid},gid=${gid},mode=0700`,
      "tmpfs",
      dir,
    ]);
    await chown(dir, uid, gid);
    return dir;
  } catch {
    await rm(dir, { recursive: true, force: true });
    return null;
  }
}

/** Puts `tables` (schema-qualified, with their indexes and TOAST) on a disk of `sizeKb` that fills on demand. */
export async function smallDisk(
  db: Queryable,
  tables: readonly string[],
  options: { sizeKb?: number; mode?: "trigger" } = {},
): Promise<SmallDisk> {
  // A table that still has room in its pages takes rows on a full disk: the trigger refuses them all.
  const dir = options.mode === "trigger" ? null : await mountTmpfs(options.sizeKb ?? 4096);
  if (!dir) return triggerDisk(db, tables);
  const tablespace = `small_disk_${Math.random().toString(36).slice(2, 10)}`;
  await db.query(`CREATE TABLESPACE ${tablespace} LOCATION '${dir}'`);
  // Names from this test's own list and PostgreSQL's catalogue (regclass text is quoted where it must be).
  for (const table of tables) {
    await db.query(`ALTER TABLE ${table} SET TABLESPACE ${tablespace}`);
    const { rows } = await db.query<{ name: string }>(
      "SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = $1::regclass",
      [table],
    );
    for (const { name } of rows) await db.query(`ALTER INDEX ${name} SET TABLESPACE ${tablespace}`);
  }
  const filler = join(dir, "filler");
  return {
    mode: "tmpfs",
    async fill() {
      const file = await open(filler, "a");
      const chunk = Buffer.alloc(64 * 1024, 1);
      try {
        for (;;) await file.write(chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      } finally {
        await file.close();
      }
    },
    async free() {
      await rm(filler, { force: true });
    },
    async close() {
      // On the server: the test database's own pool has ended with it.
      const admin = createPool(process.env.SKYWARD_TEST_SERVER_URL ?? "", { max: 1 });
      await admin.query(`DROP TABLESPACE IF EXISTS ${tablespace}`).finally(() => admin.end());
      await run("umount", [dir]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function triggerDisk(db: Queryable, tables: readonly string[]): SmallDisk {
  const triggers = tables.map((table) => ({ table, name: `small_disk_full_${table.replace(/\W/g, "_")}` }));
  return {
    mode: "trigger",
    async fill() {
      await db.query(`CREATE OR REPLACE FUNCTION public.small_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'could not extend file "%": No space left on device', TG_TABLE_NAME
          USING ERRCODE = '53100', HINT = 'Check free disk space.'; END $$`);
      for (const { table, name } of triggers)
        await db.query(
          `CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION public.small_disk_full()`,
        );
    },
    async free() {
      for (const { table, name } of triggers) await db.query(`DROP TRIGGER IF EXISTS ${name} ON ${table}`);
    },
    async close() {},
  };
}
