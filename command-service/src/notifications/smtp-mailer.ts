import { createTransport, type Transporter } from "nodemailer";
import type { Mailer, OutgoingMail } from "./port-types.ts";

/** Mail through an SMTP server (`SMTP_URL`, e.g. `smtps://user:pass@smtp.example.com`). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = createTransport(url);
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
      attachments: (mail.attachments ?? []).map((a) => ({
        filename: a.filename,
        contentType: a.content_type,
        content: a.content,
      })),
    });
  }

  close(): void {
    this.transport.close();
  }
}
