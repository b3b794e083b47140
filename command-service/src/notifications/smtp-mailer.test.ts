// The SMTP transport's pooled connections (issue 26): mails one after another share one connection to the server.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { SMTPServer } from "smtp-server";
import { SmtpMailer } from "./smtp-mailer.ts";

let smtp: SMTPServer;
let url: string;
let connections = 0;
const subjects: string[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        subjects.push(/^Subject: (.*)$/m.exec(Buffer.concat(chunks).toString("utf8"))?.[1] ?? "");
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  url = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe("the SMTP mailer", () => {
  it("when three mails are sent one after another, then they all arrive over one connection, closed with the mailer", async () => {
    const mailer = new SmtpMailer(url, "Skyward <no-reply@skyward.test>");
    for (const n of [1, 2, 3])
      await mailer.send({
        to: "traveller@example.com",
        subject: `Mail ${n}`,
        text: "Hello",
        attachments: [
          { filename: "a.pdf", content_type: "application/pdf", content: Buffer.from("%PDF-1.4") },
        ],
      });
    mailer.close();
    expect(subjects).toEqual(["Mail 1", "Mail 2", "Mail 3"]);
    expect(connections).toBe(1);
  });
});
