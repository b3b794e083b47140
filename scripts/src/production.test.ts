// `npm run serve` as an operator runs it (no NODE_ENV), over real HTTP, reading its real stdout.
import { type ChildProcess, spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD, demoUsers } from "@skyward/command-service/world/demo-world";
import { readConfig } from "@skyward/infra/config";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { SMTPServer } from "smtp-server";
import { startSkyward } from "./app.ts";
import { HttpClient } from "./testing/http-client.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const SECRET = "a-production-secret-of-at-least-32-characters";

interface Served {
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/** `scripts/src/serve.ts` in a child process with the environment an operator would give it. */
async function serve(env: Record<string, string>): Promise<Served> {
  const { NODE_ENV: _jest, NODE_OPTIONS: _vm, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "scripts/src/serve.ts"], {
    cwd: root,
    env: { ...inherited, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /listening at (\S+)/.exec(out);
      if (match?.[1]) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 20);
    child.once("exit", (code) => {
      clearInterval(timer);
      reject(new Error(`serve exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    url,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** The JSON log lines written so far. */
const logLines = (output: string): Record<string, unknown>[] =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Waits until the request with this trace id has been logged (pino writes after the answer). */
async function loggedRequest(served: Served, traceId: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const line = logLines(served.output()).find(
      (l) => l.traceId === traceId && l.msg === "request completed",
    );
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`request ${traceId} was not logged:\n${served.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let db: TestDatabase;
let served: Served;
let smtp: SMTPServer;
const mails: { to: string[]; raw: string }[] = [];
let passwords: Map<string, string>;

beforeAll(async () => {
  db = await createTestDatabase();
  // First seeded by a development process, as a staging database that was once run with `npm start` would be.
  const dev = await startSkyward({ databaseUrl: db.url, port: 0, seedDemo: true, logLevel: "silent" });
  await dev.stop();

  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  // No SEED_DEMO: production does not seed, but still retires the published password the development run left.
  served = await serve({
    DATABASE_URL: db.url,
    SESSION_SECRET: SECRET,
    LOG_LEVEL: "info",
    SMTP_URL: `smtp://127.0.0.1:${port}`,
  });
  passwords = new Map(
    [...served.output().matchAll(/^ {2}(\S+@\S+) {2}(\S+)$/gm)].map((m) => [m[1] as string, m[2] as string]),
  );
}, 120_000);

afterAll(async () => {
  await served?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await db.drop();
});

describe("npm run serve without NODE_ENV", () => {
  it("when the dev outboxes are asked for, then they do not exist (404 in the error envelope), even from this machine", async () => {
    const client = new HttpClient(served.url);
    for (const path of ["/dev/mailbox", "/dev/voice"]) {
      const res = await client.get(path, { query: { to: "agent@dnipro.test" } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        errors: [expect.objectContaining({ status: "404", code: "route_not_found" })],
      });
    }
  });

  it("when the database holds the demo world seeded in development, then the published password opens no account and each user's random password is printed once", async () => {
    expect([...passwords.keys()].sort()).toEqual(demoUsers.map((u) => u.email).sort());
    for (const password of passwords.values()) {
      expect(password).not.toBe(DEMO_PASSWORD);
      expect(password.length).toBeGreaterThanOrEqual(20);
    }
    for (const email of ["admin@skyward.test", "agent@vistula.test", "agent@dnipro.test"]) {
      const res = await new HttpClient(served.url, { "x-forwarded-for": "198.51.100.1" }).post("/sign_in", {
        account: { email, password: DEMO_PASSWORD },
      });
      expect(res.status).toBe(401);
      expect(res.body.errors[0].code).toBe("invalid_credentials");
    }
    const admin = await new HttpClient(served.url).signInWithPassword(
      "admin@skyward.test",
      passwords.get("admin@skyward.test") as string,
    );
    expect(admin.body.account.user_type).toBe("Admin");
    expect(
      logLines(served.output())
        .map((l) => JSON.stringify(l))
        .join("\n"),
    ).not.toContain(passwords.get("admin@skyward.test"));
  });

  it("when requests carry cookies, CSRF tokens, bearer tokens, passwords, sign-in codes and a traveller's personal data, then the log shows none of them", async () => {
    const secrets: string[] = [];
    // A code user signs in with the code that came by SMTP.
    const agent = new HttpClient(served.url);
    const start = await agent.post("/start_sign_in", {
      account: { email: "agent@dnipro.test", language: "en" },
    });
    expect(start.body.account.auth_method).toBe("otp");
    const deadline = Date.now() + 5000;
    while (!mails.some((m) => m.to.includes("agent@dnipro.test")) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const mail = mails.find((m) => m.to.includes("agent@dnipro.test"));
    const code = /\b(\d{6})\b/.exec(mail?.raw.split("\r\n\r\n").slice(1).join("\n") ?? "")?.[1] ?? "";
    expect(code).toMatch(/^\d{6}$/);
    secrets.push(code);
    const signedIn = await agent.post("/sign_in", {
      account: { email: "agent@dnipro.test", otp_attempt: code },
    });
    expect(signedIn.status).toBe(200);
    const session = agent.cookie("skyward_session") as string;
    secrets.push(session, agent.cookie("skyward_csrf") as string);
    const signInLog = await loggedRequest(served, signedIn.headers.get("x-trace-id") as string);
    expect(signInLog).toMatchObject({
      req: { headers: { cookie: "[redacted]", "x-csrf-token": "[redacted]" } },
      res: { headers: { "set-cookie": "[redacted]" } },
    });

    const issued = await agent.put("/account/api_token", {});
    expect(issued.status).toBe(200);
    const token = issued.body.data.token as string;
    secrets.push(token);
    const bearer = await HttpClient.withBearer(served.url, token).get("/account/details");
    expect(bearer.status).toBe(200);
    expect(await loggedRequest(served, bearer.headers.get("x-trace-id") as string)).toMatchObject({
      req: { headers: { authorization: "[redacted]" } },
    });

    // A traveller's personal data (issue 23) is never logged: kept, found as typed, and refused on a bad field.
    const traveller = {
      first_name: "Yaryna",
      last_name: "Ostapchuk",
      date_of_birth: "1983-07-29",
      gender: "F",
      documents: [
        {
          type: "passport",
          number: "FY9081726",
          issuing_country: "UA",
          nationality: "UA",
          expires_on: "2035-02-11",
        },
      ],
      contacts: { email: "yaryna.ostapchuk@example.org", phone: "+380671112233" },
      loyalty: [],
      ssrs: ["VGML"],
    };
    const kept = await agent.post("/travellers", { traveller });
    expect(kept.status).toBe(201);
    const found = await agent.get("/travellers", { query: { q: "FY90817" } });
    const refused = await agent.post("/travellers", { traveller: { ...traveller, ssrs: ["NOPE"] } });
    expect(refused.status).toBe(422);
    for (const res of [kept, found, refused])
      await loggedRequest(served, res.headers.get("x-trace-id") as string);
    secrets.push(
      "Ostapchuk",
      "OSTAPCHUK",
      "FY9081726",
      "FY90817",
      "1983-07-29",
      "yaryna.ostapchuk",
      "671112233",
    );

    // No voice provider in production yet: the new code comes by e-mail instead, and is never logged either.
    const mailsBefore = mails.length;
    const voice = await new HttpClient(served.url).post("/send_voice_otp", {
      account: { email: "agent@dnipro.test" },
    });
    expect(voice.status).toBe(200);
    await loggedRequest(served, voice.headers.get("x-trace-id") as string);
    const voiceDeadline = Date.now() + 5000;
    while (mails.length === mailsBefore && Date.now() < voiceDeadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const instead = /\b(\d{6})\b/.exec(mails.at(-1)?.raw.split("\r\n\r\n").slice(1).join("\n") ?? "")?.[1];
    expect(instead).toMatch(/^\d{6}$/);
    secrets.push(instead as string);
    const password = passwords.get("agent@vistula.test") as string;
    secrets.push(password);
    const byPassword = await new HttpClient(served.url).signInWithPassword("agent@vistula.test", password);
    await loggedRequest(served, byPassword.headers.get("x-trace-id") as string);

    const log = served.output();
    const printedOnce = log.indexOf(password);
    expect(printedOnce).toBeGreaterThan(-1);
    expect(log.indexOf(password, printedOnce + 1)).toBe(-1);
    for (const secret of secrets.filter((s) => s !== password)) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/Your Skyward code is|sign-in code is/);
  });
});

describe("npm run serve without SMTP_URL", () => {
  it("when a code is requested, then no mail goes out and the log says so without the message", async () => {
    // A database of its own: mail goes out as a job, which a process with SMTP on the same queue would take.
    const own = await createTestDatabase();
    const bare = await serve({
      DATABASE_URL: own.url,
      SESSION_SECRET: SECRET,
      LOG_LEVEL: "info",
      SEED_DEMO: "true",
    });
    try {
      const res = await new HttpClient(bare.url).post("/start_sign_in", {
        account: { email: "supervisor@dnipro.test", language: "en" },
      });
      expect(res.status).toBe(200);
      expect(res.body.account.auth_method).toBe("otp");
      const deadline = Date.now() + 30_000;
      let unsent: Record<string, unknown> | undefined;
      while (!unsent && Date.now() < deadline) {
        unsent = logLines(bare.output()).find((l) => /mail transport not configured/.test(String(l.msg)));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(unsent).toEqual(expect.objectContaining({ level: 40, subject: "Your Skyward sign-in code" }));
      expect(unsent).not.toHaveProperty("text");
      expect(unsent).not.toHaveProperty("to");
      expect(bare.output()).toContain("SMTP_URL is not set");
      // Seeded in production, the demo world gets random passwords too.
      const printed = [...bare.output().matchAll(/^ {2}(\S+@\S+) {2}(\S+)$/gm)];
      expect(printed.map((m) => m[1]).sort()).toEqual(demoUsers.map((u) => u.email).sort());
      expect(printed.map((m) => m[2])).not.toContain(DEMO_PASSWORD);
      expect(bare.output()).not.toMatch(/code is/);
    } finally {
      await bare.stop();
      await own.drop();
    }
  }, 120_000);
});

describe("production configuration", () => {
  it("when the dev mailbox is switched on in production, then the configuration is refused", () => {
    expect(() => readConfig({ NODE_ENV: "production", SESSION_SECRET: SECRET, DEV_MAILBOX: "true" })).toThrow(
      /DEV_MAILBOX: the dev mailbox cannot be enabled in production/,
    );
    const config = readConfig({ NODE_ENV: "production", SESSION_SECRET: SECRET });
    expect(config).toMatchObject({ DEV_MAILBOX: false, SEED_DEMO: false, TRUST_PROXY: false });
  });

  it("when TRUST_PROXY would trust every hop, then the configuration is refused", () => {
    expect(() => readConfig({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY/);
    expect(readConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8" }).TRUST_PROXY).toEqual([
      "loopback",
      "10.0.0.0/8",
    ]);
  });
});
