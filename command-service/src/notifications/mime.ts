import { randomBytes, randomUUID } from "node:crypto";
import { domainToASCII } from "node:url";
import type { OutgoingMail } from "./port-types.ts";

/**
 * A mail as one MIME message (RFC 5322, 2045-2047, 2231), built in one pass into one buffer (issue 26: nodemailer's
 * composer built an itinerary mail part by part through streams, its base64 and quoted-printable line by line in
 * JavaScript, about 1 ms of the jobs process's CPU per mail, and every mail the product sends goes through here).
 *
 * - Text and HTML are UTF-8, quoted-printable; with both, a multipart/alternative (text first). Attachments are
 *   base64 in a multipart/mixed around them.
 * - Headers are ASCII: a subject or display name with anything else is written as encoded words (RFC 2047), a file
 *   name as an RFC 2231 parameter beside an encoded-word `name` for older readers. A recipient's domain is
 *   written in its ASCII (punycode) form.
 * - Lines end in CRLF and stay within 76 characters, but for a header's own long words.
 */

export interface MimeMessage {
  /** The envelope's sender and recipients (the SMTP MAIL FROM and RCPT TO). */
  envelope: { from: string; to: string[] };
  /** Its Message-ID header's value. */
  messageId: string;
  raw: Buffer;
}

const CRLF = "\r\n";
const ASCII_PRINTABLE = /^[\x20-\x7e]*$/;

/** `Name <address>` or a bare address, split; the address's domain in its ASCII form. */
export function parseAddress(value: string): { name: string | null; address: string } {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(value);
  const [name, address] = match ? [match[1] || null, (match[2] as string).trim()] : [null, value.trim()];
  const at = address.lastIndexOf("@");
  const domain = at >= 0 ? address.slice(at + 1) : "";
  const ascii = domain && !ASCII_PRINTABLE.test(domain) ? domainToASCII(domain) || domain : domain;
  const unquoted = name?.replace(/^"(.*)"$/, "$1").replace(/\\(.)/g, "$1") ?? null;
  return { name: unquoted, address: at >= 0 ? `${address.slice(0, at)}@${ascii}` : address };
}

/** Encoded words (RFC 2047, base64) for UTF-8 text: each at most 75 characters, never splitting a character. */
function encodedWords(text: string): string[] {
  const words: string[] = [];
  let chunk = "";
  let bytes = 0;
  for (const character of text) {
    const size = Buffer.byteLength(character);
    // 45 bytes of UTF-8 are 60 of base64, and with `=?UTF-8?B?` and `?=` 72 in all.
    if (bytes + size > 45) {
      words.push(chunk);
      chunk = "";
      bytes = 0;
    }
    chunk += character;
    bytes += size;
  }
  if (chunk || words.length === 0) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, "utf8").toString("base64")}?=`);
}

/** A header's unstructured text (a subject): as it is when plain ASCII, else encoded words, one per folded line. */
function unstructured(text: string): string {
  const clean = text.replace(/[\r\n]+/g, " ");
  return ASCII_PRINTABLE.test(clean) ? clean : encodedWords(clean).join(`${CRLF} `);
}

/** An address header's value: the display name quoted, or in encoded words when it is not plain ASCII. */
function mailbox({ name, address }: { name: string | null; address: string }): string {
  if (!name) return address;
  const clean = name.replace(/[\r\n]+/g, " ");
  // Words of atoms as they are, other ASCII quoted (RFC 5322's specials), anything else in encoded words.
  const display = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]+$/.test(clean)
    ? clean
    : ASCII_PRINTABLE.test(clean)
      ? `"${clean.replace(/["\\]/g, (c) => `\\${c}`)}"`
      : encodedWords(clean).join(" ");
  return `${display} <${address}>`;
}

/** A file name as header parameters: `filename*` (RFC 2231) when not plain ASCII, beside `filename`/`name`. */
function fileParameters(filename: string): { name: string; disposition: string } {
  const clean = filename.replace(/[\r\n"\\]+/g, "_");
  if (ASCII_PRINTABLE.test(clean)) return { name: `name="${clean}"`, disposition: `filename="${clean}"` };
  const percent = encodeURIComponent(clean).replace(
    /['()*!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  const words = encodedWords(clean).join(" ");
  return { name: `name="${words}"`, disposition: `filename*=UTF-8''${percent}` };
}

/** Base64 in lines of 76 characters. */
function base64Lines(content: Buffer): string {
  const encoded = content.toString("base64");
  const lines: string[] = [];
  for (let i = 0; i < encoded.length; i += 76) lines.push(encoded.slice(i, i + 76));
  return lines.join(CRLF);
}

const HEX = "0123456789ABCDEF";

/** UTF-8 text as quoted-printable (RFC 2045): its line breaks as CRLF, every line within 76 characters. */
export function quotedPrintable(text: string): string {
  const out: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const bytes = Buffer.from(line, "utf8");
    let current = "";
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i] as number;
      const last = i === bytes.length - 1;
      // Printable ASCII but "=" as it is, and a space or tab too unless it ends the line; anything else as =XX.
      const plain = (b >= 33 && b <= 126 && b !== 61) || ((b === 32 || b === 9) && !last);
      const piece = plain ? String.fromCharCode(b) : `=${HEX[b >> 4]}${HEX[b & 15]}`;
      // A soft line break ("=" at the end) keeps each line within 76 characters.
      if (current.length + piece.length > 75) {
        out.push(`${current}=`);
        current = "";
      }
      current += piece;
    }
    out.push(current);
  }
  return out.join(CRLF);
}

const boundary = () => `----=_Skyward_${randomBytes(12).toString("hex")}`;

/** An RFC 5322 date: `Mon, 30 Nov 2026 02:06:05 +0000`. */
function mailDate(at: Date): string {
  const [day, date, month, year, time] = at.toUTCString().split(" ");
  return `${day} ${date} ${month} ${year} ${time} +0000`;
}

/** A part: its headers, a blank line, its body. */
const part = (headers: string[], body: string) => `${headers.join(CRLF)}${CRLF}${CRLF}${body}`;

const textPart = (subtype: "plain" | "html", text: string) =>
  part(
    [`Content-Type: text/${subtype}; charset=utf-8`, "Content-Transfer-Encoding: quoted-printable"],
    quotedPrintable(text),
  );

/** A multipart body of the parts, with headers of its own. */
function multipart(subtype: "mixed" | "alternative", parts: string[]): string {
  const b = boundary();
  return part(
    [`Content-Type: multipart/${subtype}; boundary="${b}"`],
    `${parts.map((p) => `--${b}${CRLF}${p}`).join(CRLF)}${CRLF}--${b}--`,
  );
}

/** The message of a mail from `from` (`Name <address>` or an address), sent at `at`. */
export function buildMessage(from: string, mail: OutgoingMail, at: Date = new Date()): MimeMessage {
  const sender = parseAddress(from);
  const recipient = parseAddress(mail.to);
  const domain = sender.address.slice(sender.address.lastIndexOf("@") + 1) || "skyward.local";
  const body = mail.html
    ? multipart("alternative", [textPart("plain", mail.text), textPart("html", mail.html)])
    : textPart("plain", mail.text);
  const attachments = (mail.attachments ?? []).map((a) => {
    const { name, disposition } = fileParameters(a.filename);
    return part(
      [
        `Content-Type: ${a.content_type}; ${name}`,
        `Content-Disposition: attachment; ${disposition}`,
        "Content-Transfer-Encoding: base64",
      ],
      base64Lines(a.content),
    );
  });
  const content = attachments.length > 0 ? multipart("mixed", [body, ...attachments]) : body;
  const messageId = `<${randomUUID()}@${domain}>`;
  const headers = [
    `From: ${mailbox(sender)}`,
    `To: ${mailbox(recipient)}`,
    `Subject: ${unstructured(mail.subject)}`,
    `Date: ${mailDate(at)}`,
    `Message-ID: ${messageId}`,
    "MIME-Version: 1.0",
  ];
  return {
    envelope: { from: sender.address, to: [recipient.address] },
    messageId,
    // Ending in a line break, as a message over SMTP does either way (the client adds one before the final dot).
    raw: Buffer.from(`${headers.join(CRLF)}${CRLF}${content}${CRLF}`, "utf8"),
  };
}
