// `npm run bench -- pg-roundtrip [--statements=N] [--rounds=N]`: the client CPU and wall time of one statement's
// round trip to a fresh embedded PostgreSQL, over loopback TCP and over its Unix socket, in alternating rounds, so
// the two are measured under the same load.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { SOCKET_DIR, startEmbeddedPostgres } from "@skyward/infra/embedded-postgres";
import pg from "pg";

function arg(args: readonly string[], name: string, fallback: number): number {
  const found = args.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split("=")[1]) : fallback;
}

/** Microseconds of this process's CPU and of wall time per statement. */
async function measure(config: pg.ClientConfig, statements: number) {
  const client = new pg.Client(config);
  await client.connect();
  try {
    for (let i = 0; i < 200; i++) await client.query("SELECT $1::int AS x", [i]); // warm-up
    const cpu = process.cpuUsage();
    const wall = performance.now();
    for (let i = 0; i < statements; i++) await client.query("SELECT $1::int AS x", [i]);
    const used = process.cpuUsage(cpu);
    return {
      cpu: (used.user + used.system) / statements,
      wall: ((performance.now() - wall) * 1000) / statements,
    };
  } finally {
    await client.end();
  }
}

export async function run(args: readonly string[]): Promise<void> {
  const statements = arg(args, "statements", 5000);
  const rounds = arg(args, "rounds", 3);
  const dataDir = await mkdtemp(join(os.tmpdir(), "skyward-bench-roundtrip-"));
  const server = await startEmbeddedPostgres({ dataDir });
  try {
    const socket = SOCKET_DIR;
    if (!socket) throw new Error("the embedded server has no Unix socket on this platform");
    const base = { port: server.port, user: "postgres", password: "postgres", database: "postgres" };
    const totals = { tcp: { cpu: 0, wall: 0 }, socket: { cpu: 0, wall: 0 } };
    for (let round = 0; round < rounds; round++) {
      for (const [side, host] of [
        ["tcp", "127.0.0.1"],
        ["socket", socket],
      ] as const) {
        const m = await measure({ ...base, host }, statements);
        totals[side].cpu += m.cpu / rounds;
        totals[side].wall += m.wall / rounds;
      }
    }
    console.log(
      `\npg-roundtrip: ${statements} statements × ${rounds} rounds each way (${os.cpus().length} cores)\n`,
    );
    console.log("connection      client CPU µs/statement   wall µs/statement");
    for (const side of ["tcp", "socket"] as const)
      console.log(
        `${side.padEnd(15)} ${totals[side].cpu.toFixed(1).padStart(24)} ${totals[side].wall.toFixed(1).padStart(19)}`,
      );
    console.log(`\nsocket / tcp client CPU: ${(totals.socket.cpu / totals.tcp.cpu).toFixed(2)}`);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
