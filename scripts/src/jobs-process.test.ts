// `npm start`'s jobs process (issue 26): the background jobs run in a process of their own beside the web process,
// which runs none; a kill -9 of the jobs process in the middle of a mail loses it not, and sends it once.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { SMTPServer } from "smtp-server";
import { holdBooking, until } from "./testing/bookings.ts";
import { HttpClient } from "./testing/http-client.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The process holding the local end of a TCP connection from `port` on this machine (from /proc), or null. */
function processOfPort(port: number, candidates: readonly number[]): number | null {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hex}`) && fields[9]) inodes.add(fields[9]);
    }
  }
  for (const pid of candidates) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const target = (() => {
          try {
            return readlinkSync(`/proc/${pid}/fd/${fd}`);
          } catch {
            return "";
          }
        })();
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode && inodes.has(inode)) return pid;
      }
    } catch {
      // gone
    }
  }
  return null;
}

interface Delivery {
  /** The itinerary's locator, from the subject. */
  subject: string;
  to: string[];
  raw: string;
  /** The process that sent it (the web process or the jobs process), found by its socket. */
  sender: number | null;
}

describe("npm start's jobs process", () => {
  let db: TestDatabase;
  let smtp: SMTPServer;
  let start: ChildProcess;
  let out = "";
  const accepted: Delivery[] = [];
  const smtpErrors: Error[] = [];
  /** While set, a message is held unanswered (the send in flight) and handed to it. */
  let hold: ((delivery: Delivery) => void) | null = null;
  const jobsPids = () => [...out.matchAll(/jobs process started \(pid (\d+)\)/g)].map((m) => Number(m[1]));

  beforeAll(async () => {
    db = await createTestDatabase();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      // The held delivery's connection (its sender killed) is closed at once when the test ends, not after 30 s.
      closeTimeout: 500,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const delivery: Delivery = {
            subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? "",
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            sender: processOfPort(session.remotePort, [start.pid as number, ...jobsPids()]),
          };
          // The itinerary mail is held (other mails of the issue, e.g. the agent's notification, go through).
          if (hold && /itinerary/i.test(delivery.subject)) {
            // Never answered: the sender dies waiting for the server's 250.
            hold(delivery);
            hold = null;
            return;
          }
          accepted.push(delivery);
          callback();
        });
      },
    });
    // The killed sender's connection may end with a reset (when it had unread bytes): expected here, and an
    // EventEmitter's unheard 'error' would fail the whole file. Any other server error fails the test below.
    smtp.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "ECONNRESET") smtpErrors.push(error);
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const { port } = smtp.server.address() as AddressInfo;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: db.url,
      PORT: "0",
      LOG_LEVEL: "warn",
      SEED_DEMO: "true",
      SMTP_URL: `smtp://127.0.0.1:${port}`,
    };
    delete env.NODE_OPTIONS;
    delete env.JOBS_IN_PROCESS;
    start = spawn(process.execPath, ["--import", "tsx", "scripts/src/start.ts"], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    start.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    start.stderr?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    await until(
      async () => (/Skyward is running at (\S+)/.test(out) ? true : undefined),
      120_000,
      "npm start",
      50,
    );
  }, 150_000);
  afterAll(async () => {
    if (start && start.exitCode === null) {
      const exited = new Promise((resolve) => start.once("exit", resolve));
      start.kill("SIGTERM");
      await exited;
    }
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await db?.drop();
  });

  it("when a booking is issued, then its itinerary mail is sent by the jobs process, the web process runs no job, and a kill -9 of the jobs process in the middle of the send loses no mail and sends it once", async () => {
    const url = /Skyward is running at (\S+)/.exec(out)?.[1] as string;
    const [firstJobs] = jobsPids();
    expect(firstJobs).toBeGreaterThan(0);
    expect(firstJobs).not.toBe(start.pid);
    // Only the jobs process's workers take jobs: one instance's workers, none of the web process.
    const instances = await until(
      async () => {
        const { rows } = await db.pool.query<{ n: number }>(
          "SELECT count(DISTINCT instance)::int AS n FROM app.job_workers",
        );
        return rows[0]?.n ? rows[0].n : undefined;
      },
      30_000,
      "the jobs process's workers",
    );
    expect(instances).toBe(1);
    // The jobs process (its workers up) runs below the web process's priority (JOBS_NICE, 10 by default); the web process keeps its own.
    expect(os.getPriority(start.pid as number)).toBe(os.getPriority());
    expect(os.getPriority(firstJobs as number)).toBe(Math.max(os.getPriority(), 10));

    const agent = new HttpClient(url);
    expect((await agent.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD)).status).toBe(200);
    const inFlight = new Promise<Delivery>((resolve) => {
      hold = resolve;
    });
    const locator = await holdBooking(agent);
    const issued = await agent.post("/bookings/issue", { locator });
    expect(issued.status).toBe(201);

    // The itinerary mail arrives from the jobs process; it is killed before the server accepts it.
    const first = await inFlight;
    expect(first.raw).toContain(locator);
    expect(first.sender).toBe(firstJobs);
    process.kill(firstJobs as number, "SIGKILL");

    // Started again, the jobs process sends it at once (not after the library's four-hour lock), and once.
    const mail = await until(
      async () => accepted.find((d) => d.raw.includes(locator) && /itinerary/i.test(d.subject)),
      60_000,
      "the itinerary mail sent again",
    );
    const [, secondJobs] = jobsPids();
    expect(secondJobs).toBeGreaterThan(0);
    expect(mail.sender).toBe(secondJobs);
    expect(mail.to).toEqual(["traveller@example.com"]);
    expect(mail.raw).toContain("application/pdf");
    await until(
      async () => {
        const { rows } = await db.pool.query(
          // The mail on issue goes in its sweep's batch (send-itineraries), one sent on demand alone.
          "SELECT 1 FROM graphile_worker.jobs WHERE task_identifier IN ('send-itinerary', 'send-itineraries')",
        );
        return rows.length === 0 ? true : undefined;
      },
      30_000,
      "the itinerary job done",
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(accepted.filter((d) => d.raw.includes(locator) && /itinerary/i.test(d.subject))).toHaveLength(1);
    expect(out).toMatch(/jobs process \(pid \d+\) stopped \(SIGKILL\)/);
    expect(smtpErrors).toEqual([]);
  }, 180_000);
});
