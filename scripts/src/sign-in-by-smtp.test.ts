import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { SMTPServer } from "smtp-server";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

const decodeQuotedPrintable = (text: string) =>
  Buffer.from(
    text
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");

let smtp: SMTPServer;
let t: TestApp;
const received: Received[] = [];
let onMessage: () => void = () => {};

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        onMessage();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  t = await startTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: "Skyward <sign-in@skyward.test>" },
  });
});
afterAll(async () => {
  await t.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

it("when SMTP is configured, then the sign-in code goes out over SMTP, and the received code signs the user in", async () => {
  const client = t.client();
  const arrived = new Promise<void>((resolve) => {
    onMessage = resolve;
  });
  const res = await client.post("/start_sign_in", {
    account: { email: "agent@dnipro.test", language: "pl" },
  });
  expect(res.status).toBe(200);
  await arrived;

  expect(received).toHaveLength(1);
  const message = received[0] as Received;
  expect(message.from).toBe("sign-in@skyward.test");
  expect(message.to).toEqual(["agent@dnipro.test"]);
  const [headers = "", body = ""] = message.raw.split(/\r?\n\r?\n/, 2);
  expect(headers).toMatch(/^Content-Transfer-Encoding: quoted-printable$/m);
  const text = decodeQuotedPrintable(body);
  expect(text).toContain("Wygaśnie za 10 minut.");
  const value = /Twój kod logowania to (\d{6})\./.exec(text)?.[1] ?? "";
  expect(value).toMatch(/^\d{6}$/);

  // With a real transport configured, nothing lands in the dev mailbox.
  expect((await client.get("/dev/mailbox", { query: { to: "agent@dnipro.test" } })).body.data).toEqual([]);
  const signedIn = await client.post("/sign_in", {
    account: { email: "agent@dnipro.test", otp_attempt: value },
  });
  expect(signedIn.status).toBe(200);
});
