// The SMTP mailer over real connections to real SMTP servers (smtp-server; a raw one where a server must misbehave):
// kept connections (issue 26), pipelining, STARTTLS and TLS, sign-in, refusals, a server closing a kept connection,
// and a connection lost while the message was going.
import { type AddressInfo, createServer, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { dotStuffed, SmtpReplyError } from "./smtp-connection.ts";
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
    // The commands (MAIL FROM, RCPT TO, DATA) pipelined in one write; the message and its final dot, corked into one
    // write to the system: nodemailer's composer, streaming, took 19.
    expect(writes).toBe(3);
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

/** An smtp-server on a port of its own, collecting what it took (and whether over TLS), closed after the test. */
async function server(options: ConstructorParameters<typeof SMTPServer>[0] = {}) {
  const taken: { to: string[]; secure: boolean; user: string | null; text: string }[] = [];
  let opened = 0;
  const instance = new SMTPServer({
    logger: false,
    authOptional: true,
    onConnect(_session, callback) {
      opened++;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        taken.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          secure: session.secure,
          user: (session.user as string | undefined) ?? null,
          text: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => instance.listen(0, "127.0.0.1", resolve));
  const port = (instance.server.address() as AddressInfo).port;
  return {
    port,
    taken,
    opened: () => opened,
    close: () => new Promise<void>((resolve) => instance.close(() => resolve())),
  };
}

/** Runs `test` against an smtp-server of its own (`server`), closed after it whatever happens. */
async function withServer(
  options: Parameters<typeof server>[0],
  test: (s: Awaited<ReturnType<typeof server>>) => Promise<void>,
): Promise<void> {
  const s = await server(options);
  try {
    await test(s);
  } finally {
    await s.close();
  }
}

const FROM = "Skyward <no-reply@skyward.test>";
const mailTo = (to: string, subject = "Hello") => ({ to, subject, text: `Mail to ${to}` });

describe("the SMTP mailer, as servers differ", () => {
  it("when the server asks for a password, then the URL's user signs in and a wrong password sends nothing", async () => {
    await withServer(
      {
        authOptional: false,
        allowInsecureAuth: true,
        disabledCommands: ["STARTTLS"],
        onAuth(auth, _session, callback) {
          if (auth.username === "agency" && auth.password === "p@ss word")
            callback(null, { user: auth.username });
          else callback(new Error("Invalid username or password"));
        },
      },
      async (s) => {
        const mailer = new SmtpMailer(
          `smtp://agency:${encodeURIComponent("p@ss word")}@127.0.0.1:${s.port}`,
          FROM,
        );
        await mailer.send(mailTo("a@example.com"));
        mailer.close();
        expect(s.taken.map((m) => [m.to, m.user])).toEqual([[["a@example.com"], "agency"]]);
        const wrong = new SmtpMailer(`smtp://agency:nope@127.0.0.1:${s.port}`, FROM);
        const refused = await wrong.send(mailTo("b@example.com")).catch((e: unknown) => e);
        wrong.close();
        expect(refused).toBeInstanceOf(SmtpReplyError);
        expect((refused as SmtpReplyError).code).toBe(535);
        // The error names the server's reply, never the password sent.
        expect(String(refused)).not.toContain("nope");
        expect(s.taken).toHaveLength(1);
      },
    );
  });

  it("when the server offers STARTTLS, then the mail goes encrypted; its certificate is checked unless the URL says not", async () => {
    // smtp-server's own self-signed certificate.
    await withServer({}, async (s) => {
      const trusting = new SmtpMailer(`smtp://127.0.0.1:${s.port}?tls.rejectUnauthorized=false`, FROM);
      await trusting.send(mailTo("tls@example.com"));
      trusting.close();
      expect(s.taken.map((m) => m.secure)).toEqual([true]);
      const checking = new SmtpMailer(`smtp://127.0.0.1:${s.port}`, FROM);
      const refused = await checking.send(mailTo("tls2@example.com")).catch((e: unknown) => e);
      checking.close();
      expect(String(refused)).toMatch(/certificate/i);
      expect(s.taken).toHaveLength(1);
    });
  });

  it("when the URL is smtps, then TLS is spoken from the first byte", async () => {
    await withServer({ secure: true }, async (s) => {
      const mailer = new SmtpMailer(`smtps://127.0.0.1:${s.port}?tls.rejectUnauthorized=false`, FROM);
      await mailer.send(mailTo("smtps@example.com"));
      mailer.close();
      expect(s.taken.map((m) => [m.to, m.secure])).toEqual([[["smtps@example.com"], true]]);
    });
  });

  it("when the server refuses a recipient, then that mail fails with its reply and the next goes over the same connection", async () => {
    for (const hidePIPELINING of [false, true]) {
      await withServer(
        {
          disabledCommands: ["STARTTLS"],
          hidePIPELINING,
          onRcptTo(address, _session, callback) {
            if (address.address === "gone@example.com") {
              const error = new Error("No such mailbox") as Error & { responseCode: number };
              error.responseCode = 550;
              callback(error);
            } else callback();
          },
        },
        async (s) => {
          const mailer = new SmtpMailer(`smtp://127.0.0.1:${s.port}`, FROM);
          const refused = await mailer.send(mailTo("gone@example.com")).catch((e: unknown) => e);
          expect(refused).toBeInstanceOf(SmtpReplyError);
          expect([(refused as SmtpReplyError).command, (refused as SmtpReplyError).code]).toEqual([
            "RCPT TO",
            550,
          ]);
          await mailer.send(mailTo("here@example.com"));
          // An address that would end its command and start another is refused before a byte is written.
          const injected = await mailer
            .send({ ...mailTo("x@example.com"), to: "x@example.com>\r\nRCPT TO:<y@example.com" })
            .catch((e: unknown) => e);
          expect(String(injected)).toMatch(/line break/);
          await mailer.send(mailTo("there@example.com"));
          mailer.close();
          expect(s.taken.map((m) => m.to)).toEqual([["here@example.com"], ["there@example.com"]]);
          expect(s.opened()).toBe(1);
        },
      );
    }
  });

  it("when the server closed a kept connection meanwhile, then the next mail goes over a new one, once", async () => {
    await withServer({ disabledCommands: ["STARTTLS"], socketTimeout: 300 }, async (s) => {
      const mailer = new SmtpMailer(`smtp://127.0.0.1:${s.port}`, FROM);
      await mailer.send(mailTo("first@example.com"));
      await new Promise((resolve) => setTimeout(resolve, 800));
      await mailer.send(mailTo("second@example.com"));
      mailer.close();
      expect(s.taken.map((m) => m.to)).toEqual([["first@example.com"], ["second@example.com"]]);
      expect(s.opened()).toBe(2);
    });
  });

  it("when the connection is lost while the message goes, then the mail fails and is not sent again", async () => {
    // A raw server: its replies come in pieces (a reply of several lines cut mid-line), and it hangs up on the message.
    let transactions = 0;
    const raw = createServer((socket) => {
      socket.write("220 raw.test ESMTP\r\n");
      let buffered = "";
      socket.on("data", (chunk: Buffer) => {
        buffered += chunk.toString("latin1");
        for (let end = buffered.indexOf("\r\n"); end >= 0; end = buffered.indexOf("\r\n")) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (line.startsWith("EHLO")) {
            socket.write("250-raw.test\r\n250-PIPE");
            setTimeout(() => socket.write("LINING\r\n250 8BITMIME\r\n"), 20);
          } else if (line.startsWith("MAIL") || line.startsWith("RCPT")) socket.write("250 OK\r\n");
          else if (line === "DATA") {
            transactions++;
            socket.write("354 Go ahead\r\n");
          } else if (line.startsWith("Subject:")) socket.destroy();
        }
      });
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    try {
      const mailer = new SmtpMailer(`smtp://127.0.0.1:${(raw.address() as AddressInfo).port}`, FROM);
      const lost = await mailer.send(mailTo("lost@example.com")).catch((e: unknown) => e);
      mailer.close();
      expect(lost).toBeInstanceOf(Error);
      expect(transactions).toBe(1);
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it("when lines start with a dot, then each gets one more (RFC 5321 4.5.2) and nothing else changes", () => {
    expect(dotStuffed(Buffer.from(".a\r\nb\r\n..c\r\n.\r\n")).toString()).toBe("..a\r\nb\r\n...c\r\n..\r\n");
    const plain = Buffer.from("no dots at line starts.\r\n");
    expect(dotStuffed(plain)).toBe(plain);
  });
});
