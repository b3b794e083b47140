// The SMTP transport's pooled connections (issue 26): mails one after another share one connection to the server.
import { type AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { SmtpMailer } from "./smtp-mailer.ts";

let smtp: SMTPServer;
let url: string;
let connections = 0;
const subjects: string[] = [];
const messages: { from: string; to: string[]; message: string }[] = [];

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
        const message = Buffer.concat(chunks).toString("utf8");
        subjects.push(/^Subject: (.*)$/m.exec(message)?.[1] ?? "");
        const { mailFrom, rcptTo } = _session.envelope;
        messages.push({
          from: mailFrom ? mailFrom.address : "",
          to: rcptTo.map((r) => r.address),
          message,
        });
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

  it("when a mail with attachments is sent, then it arrives whole, in a few writes to the socket", async () => {
    const mailer = new SmtpMailer(url, "Skyward <no-reply@skyward.test>");
    // The same connection's greeting first, so only the mail's own writes are counted.
    await mailer.send({ to: "first@example.com", subject: "Warm", text: "Hello" });
    const pdf = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
    const socketWrite = Socket.prototype.write;
    let writes = 0;
    const port = (smtp.server.address() as AddressInfo).port;
    Socket.prototype.write = function (this: Socket, ...args: Parameters<Socket["write"]>) {
      // The mailer's writes only (the server's replies are written in this process too).
      if (this.remotePort === port) writes++;
      return socketWrite.apply(this, args);
    } as Socket["write"];
    try {
      await mailer.send({
        to: "traveller@example.com",
        subject: "Маршрут ABC123",
        // Lines that start with a dot (one alone would end the message in SMTP): they arrive as written.
        text: "Добрий день\n.\n.hidden line",
        html: "<p>Добрий день</p>",
        attachments: [{ filename: "itinerary-ABC123.pdf", content_type: "application/pdf", content: pdf }],
      });
    } finally {
      Socket.prototype.write = socketWrite;
    }
    mailer.close();
    // The commands (MAIL FROM, RCPT TO, DATA), the message, its end: nodemailer's composer, streaming, took 19.
    expect(writes).toBeLessThanOrEqual(5);
    const sent = messages[messages.length - 1];
    expect(sent?.from).toBe("no-reply@skyward.test");
    expect(sent?.to).toEqual(["traveller@example.com"]);
    const message = sent?.message ?? "";
    for (const header of ["From", "To", "Subject", "Message-ID", "Date", "MIME-Version"])
      expect(message).toMatch(new RegExp(`^${header}: .+$`, "m"));
    // As a mail client reads it: the sender, the subject, the text and the attachment's very bytes.
    const parsed = await simpleParser(message);
    expect(parsed.from?.value).toEqual([{ name: "Skyward", address: "no-reply@skyward.test" }]);
    expect(parsed.subject).toBe("Маршрут ABC123");
    expect(parsed.text).toBe("Добрий день\n.\n.hidden line");
    expect(parsed.html).toBe("<p>Добрий день</p>");
    expect(parsed.attachments.map((a) => [a.filename, a.content.equals(pdf)])).toEqual([
      ["itinerary-ABC123.pdf", true],
    ]);
  });
});
