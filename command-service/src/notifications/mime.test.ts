// Every mail's MIME message (issue 26: built by us, not nodemailer's composer), read back by a real mail parser
// (mailparser, as mail clients read it): headers, text, HTML and attachments come out as they went in.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import { simpleParser } from "mailparser";
import { buildMessage, parseAddress, quotedPrintable } from "./mime.ts";

/** Every line of the message, as sent (CRLF). */
const linesOf = (raw: Buffer) => raw.toString("utf8").split("\r\n");

describe("a mail's MIME message", () => {
  it("when a mail has a subject, text, HTML and attachments in any language, then a mail parser reads them all back", async () => {
    const pdf = randomBytes(70_000);
    const receipt = randomBytes(3_001);
    const subject = "Маршрутна квитанція ABC123 — Дніпро Тревел, рейс KBP → WAW, 15 грудня 2026";
    const text = "Добрий день!\nВаш маршрут у вкладенні.\n\nZażółć gęślą jaźń = 100% ✈\n";
    const html = "<p>Добрий день!</p><p>Zażółć gęślą jaźń = 100% ✈</p>";
    const { envelope, messageId, raw } = buildMessage("Дніпро Тревел <no-reply@dnipro.test>", {
      to: "olena@dnipro.test",
      subject,
      text,
      html,
      attachments: [
        { filename: "itinerary-ABC123.pdf", content_type: "application/pdf", content: pdf },
        { filename: "ШЕВЧЕНКО_ТАРАС_5661234567890.pdf", content_type: "application/pdf", content: receipt },
      ],
    });
    expect(envelope).toEqual({ from: "no-reply@dnipro.test", to: ["olena@dnipro.test"] });
    // Plain ASCII lines, none longer than 76 characters but the headers' own (at most 998).
    for (const line of linesOf(raw)) {
      expect(line).toMatch(/^[\x20-\x7e]*$/);
      expect(line.length).toBeLessThanOrEqual(line.includes(": ") ? 998 : 76);
    }
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe(subject);
    expect(parsed.from?.value).toEqual([{ name: "Дніпро Тревел", address: "no-reply@dnipro.test" }]);
    expect(parsed.to).toMatchObject({ value: [{ address: "olena@dnipro.test" }] });
    expect(parsed.text).toBe(text);
    expect(parsed.html).toBe(html);
    expect(parsed.messageId).toMatch(/^<[0-9a-f-]{36}@dnipro\.test>$/);
    expect(parsed.messageId).toBe(messageId);
    expect(Math.abs((parsed.date?.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(
      parsed.attachments.map((a) => [
        a.filename,
        a.contentType,
        a.content.equals(a === parsed.attachments[0] ? pdf : receipt),
      ]),
    ).toEqual([
      ["itinerary-ABC123.pdf", "application/pdf", true],
      ["ШЕВЧЕНКО_ТАРАС_5661234567890.pdf", "application/pdf", true],
    ]);
  });

  it("when a mail is text only, then it is one quoted-printable part, and a display name with specials is quoted", async () => {
    const { raw } = buildMessage("Skyward, Kyiv <sign-in@skyward.test>", {
      to: "agent@dnipro.test",
      subject: "Twój kod logowania",
      text: "Twój kod logowania to 123456.\nWygaśnie za 10 minut.",
    });
    const message = raw.toString("utf8");
    expect(message).toMatch(/^Content-Type: text\/plain; charset=utf-8\r$/m);
    expect(message).toMatch(/^Content-Transfer-Encoding: quoted-printable\r$/m);
    expect(message).toContain('From: "Skyward, Kyiv" <sign-in@skyward.test>');
    const parsed = await simpleParser(raw);
    expect(parsed.from?.value).toEqual([{ name: "Skyward, Kyiv", address: "sign-in@skyward.test" }]);
    expect(parsed.subject).toBe("Twój kod logowania");
    // The message ends in a line break (as any does over SMTP): a lone part's text ends in one.
    expect(parsed.text).toBe("Twój kod logowania to 123456.\nWygaśnie za 10 minut.\n");
    expect(parsed.attachments).toEqual([]);
  });

  it("when text has long lines, equals signs, trailing spaces, tabs and a lone surrogate, then it reads back (the surrogate as U+FFFD)", async () => {
    const text = `${"x".repeat(200)}\n${"= ".repeat(60)}\ntrailing   \n\ttab \ud800 end`;
    // A NUL is encoded too (a parser may show it as it likes).
    expect(quotedPrintable("a\u0000b")).toBe("a=00b");
    const encoded = quotedPrintable(text);
    for (const line of encoded.split("\r\n")) expect(line.length).toBeLessThanOrEqual(76);
    const { raw } = buildMessage("a@b.test", { to: "c@d.test", subject: "s", text });
    expect((await simpleParser(raw)).text).toBe(`${text.replace("\ud800", "\ufffd")}\n`);
  });

  it("when a subject carries line breaks, then they are spaces: no header can be added through it", async () => {
    const { raw } = buildMessage("a@b.test", {
      to: "c@d.test",
      subject: "Hello\r\nBcc: thief@evil.test\nX-Injected: yes",
      text: "t",
    });
    const parsed = await simpleParser(raw);
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.headers.has("x-injected")).toBe(false);
    expect(parsed.subject).toBe("Hello Bcc: thief@evil.test X-Injected: yes");
  });

  it("writes a recipient's international domain in its ASCII form, in the envelope and the header", async () => {
    expect(parseAddress("Олена <olena@приклад.укр>")).toEqual({
      name: "Олена",
      address: "olena@xn--80aikifvh.xn--j1amh",
    });
    const { envelope, raw } = buildMessage("a@b.test", { to: "olena@приклад.укр", subject: "s", text: "t" });
    expect(envelope.to).toEqual(["olena@xn--80aikifvh.xn--j1amh"]);
    expect(raw.toString("utf8")).toMatch(/^To: olena@xn--80aikifvh\.xn--j1amh\r$/m);
    // A reader shows the domain in its own script again.
    expect((await simpleParser(raw)).to).toMatchObject({ value: [{ address: "olena@приклад.укр" }] });
  });
});
