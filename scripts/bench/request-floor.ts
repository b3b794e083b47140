// `npm run bench -- request-floor [--requests=N] [--concurrency=N]` (issue 26): what one HTTP request costs the
// server's CPU, from the runtime's floor up to our whole stack, measured on this machine in the same minutes. Each
// target answers the same load generator (this process, keep-alive connections, as a browser's): a bare node:http
// server and a bare Express app answering a small JSON body (the floor under any route of ours), then the app
// (all-in-one, demo world, on a fresh embedded PostgreSQL) on its liveness probe (before the middleware), on an
// unknown path (the whole middleware chain, no route), and on an agent's balances (a session, a read model). It
// prints each target's CPU ms per request (the server's process; PostgreSQL's beside it), from /proc over the run.
// A flow makes about 3.5 requests (booking-flow --counts): the gap between the floor and our stack, times that, is
// what the middleware chain costs a flow.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { createPool, withDatabase } from "@skyward/infra/db";
import { startEmbeddedPostgres } from "@skyward/infra/embedded-postgres";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import { contacts, inDays, passenger } from "../src/testing/bookings.ts";
import { HttpClient, type HttpResponse } from "../src/testing/http-client.ts";
import { arg, cpuSecondsOf, listeningUrl, postgresCpuSeconds, spawnApp } from "./booking-flow.ts";

/** A bare server in a child process, answering every request with one small JSON body. */
const BARE = {
  "node:http": `const body = JSON.stringify({ data: [{ balance_amount: { amount: 123456, currency: "UAH" }, company_id: "x".repeat(36) }] });
require("node:http").createServer((req, res) => { req.resume(); req.on("end", () => { res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) }); res.end(body); }); }).listen(0, "127.0.0.1", function () { console.log("listening at http://127.0.0.1:" + this.address().port); });`,
  express: `const body = { data: [{ balance_amount: { amount: 123456, currency: "UAH" }, company_id: "x".repeat(36) }] };
const app = require("express")(); app.get("*splat", (_req, res) => res.json(body));
const server = app.listen(0, "127.0.0.1", () => console.log("listening at http://127.0.0.1:" + server.address().port));`,
} as const;

async function spawnBare(source: string): Promise<{ url: string; pid: number; stop(): void }> {
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await listeningUrl(child, "the bare server");
  return { url, pid: child.pid as number, stop: () => child.kill("SIGTERM") };
}

interface Figures {
  /** CPU ms per request: the server process's, of it in the kernel (system calls), PostgreSQL's. */
  server: number;
  kernel: number;
  postgres: number;
  perSecond: number;
}

/** The system (kernel) CPU seconds a process used so far, from /proc (USER_HZ 100). */
function kernelSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[12]) / 100;
}

/** `requests` requests at `concurrency`, the server's and PostgreSQL's CPU ms per request over them. */
async function measure(
  send: () => Promise<HttpResponse>,
  pid: number,
  postmaster: number | null,
  requests: number,
  concurrency: number,
  status = 200,
): Promise<Figures> {
  const load = async (n: number) => {
    let left = n;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) {
          const res = await send();
          if (res.status !== status) throw new Error(`answered ${res.status}: ${JSON.stringify(res.body)}`);
        }
      }),
    );
  };
  await load(Math.min(300, requests)); // V8 compiles the hot code
  const before = {
    server: cpuSecondsOf(pid),
    kernel: kernelSecondsOf(pid),
    postgres: postgresCpuSeconds(postmaster),
    at: performance.now(),
  };
  await load(requests);
  const seconds = (performance.now() - before.at) / 1000;
  await sleep(1000); // what the requests set off (the projectors) runs on
  return {
    server: ((cpuSecondsOf(pid) - before.server) * 1000) / requests,
    kernel: ((kernelSecondsOf(pid) - before.kernel) * 1000) / requests,
    postgres: ((postgresCpuSeconds(postmaster) - before.postgres) * 1000) / requests,
    perSecond: requests / seconds,
  };
}

export async function run(args: readonly string[]): Promise<void> {
  const requests = arg(args, "requests", 4000);
  const concurrency = arg(args, "concurrency", 8);
  const rows: ({ target: string } & Figures)[] = [];
  const print = (target: string, figures: Figures) => {
    rows.push({ target, ...figures });
    console.log(
      `${target.padEnd(44)} ${figures.server.toFixed(3).padStart(7)} ms ${figures.kernel.toFixed(3).padStart(7)} ms  ${figures.postgres.toFixed(3).padStart(7)} ms  ${figures.perSecond.toFixed(0).padStart(6)}/s`,
    );
  };
  console.log(`${requests} GETs per target, ${concurrency} at a time, over keep-alive connections`);
  console.log(`${"target".padEnd(44)} server CPU  of it kernel  PostgreSQL   answered`);

  for (const [name, source] of Object.entries(BARE)) {
    const bare = await spawnBare(source);
    try {
      const client = new HttpClient(bare.url);
      print(
        `bare ${name}, small JSON`,
        await measure(() => client.get("/x"), bare.pid, null, requests, concurrency),
      );
    } finally {
      bare.stop();
    }
  }

  const dataDir = await mkdtemp(join(os.tmpdir(), "skyward-bench-floor-"));
  const server = await startEmbeddedPostgres({ dataDir });
  const database = `bench_floor_${Date.now()}`;
  const admin = createPool(server.url, { max: 1 });
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const app = await spawnApp(withDatabase(server.url, database), "command,query,projectors,frontend");
  const pool = createPool(withDatabase(server.url, database), { max: 1 });
  try {
    // Deep pockets for the issues, appended as the flow benchmark's.
    const companyId = demoId("company", "dnipro-kyiv");
    await new EventStore(pool).append({
      streamId: `balance-${companyId}`,
      expected: "any",
      events: [
        {
          type: "BalanceToppedUp",
          data: {
            company_id: companyId,
            amount: { amount: 1_000_000_000_00, currency: "UAH" },
            comment: "bench",
          },
          metadata: systemMetadata("bench"),
        },
      ],
    });
    const anonymous = new HttpClient(app.url, { "accept-encoding": "gzip, deflate, br" });
    const agent = new HttpClient(app.url, { "accept-encoding": "gzip, deflate, br" });
    await agent.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD);
    const at = (send: () => Promise<HttpResponse>, n = requests, status = 200) =>
      measure(send, app.pid, server.pid, n, concurrency, status);
    print("app: liveness probe (before the middleware)", await at(() => anonymous.get("/health")));
    print("app: unknown path, signed in (no route)", await at(() => agent.get("/unknown"), requests, 404));
    print("app: GET /balances, signed in", await at(() => agent.get("/balances")));
    // A flow's own calls, on their own: a search (as the flow asks it), and reading a booking held from one.
    const search = {
      origin: "KBP",
      destination: "WAW",
      departure_date: inDays(21),
      passengers: { adults: 1, children: 0, infants: 0 },
    };
    print("app: POST /offers (a search)", await at(() => agent.post("/offers", search), requests / 8));
    const result = (await agent.post("/offers", search)).body.result;
    // A fare held to issue, not a low-cost one issued at once.
    const fare = result.origin_destinations
      .flatMap((od: { fares: { fare_id: string; instant_payment: boolean }[] }) => od.fares)
      .find((f: { instant_payment: boolean }) => !f.instant_payment);
    // A traveller of their own per booking: the airline takes the same one on the same flight for the same booking.
    let travellers = 0;
    const lettersOf = (n: number): string =>
      (n < 26 ? "" : lettersOf(Math.floor(n / 26) - 1)) + "abcdefghijklmnopqrstuvwxyz"[n % 26];
    const hold = () =>
      agent.post("/bookings", {
        search_result_id: result.id,
        fare_id: fare.fare_id,
        passengers: [passenger("Ivan", `Floor${lettersOf(travellers++)}`)],
        contacts,
      });
    const held = await hold();
    print("app: GET /bookings/{locator}", await at(() => agent.get(`/bookings/${held.body.locator}`)));
    print("app: POST /bookings (a hold)", await at(hold, requests / 8, 201));
    const issue = async () => {
      const booked = await hold();
      if (booked.status !== 201) return booked;
      return agent.post("/bookings/issue", { locator: booked.body.locator });
    };
    print("app: POST /bookings, then /bookings/issue", await at(issue, requests / 8, 201));
    console.log(`BENCH_RESULT ${JSON.stringify({ rows })}`);
  } finally {
    await pool.end();
    await app.stop();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
