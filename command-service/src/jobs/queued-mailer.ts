import type { Mailer, OutgoingMail } from "../notifications/port-types.ts";
import type { CommandJobs } from "./specs.ts";

/** Mail as a `send-mail` job: the caller waits only for the queue, and a failing mail server is retried. */
export class QueuedMailer implements Mailer {
  constructor(private readonly jobs: CommandJobs) {}

  async send(mail: OutgoingMail): Promise<void> {
    const { to, subject, text } = mail;
    await this.jobs.send("send-mail", { to, subject, text }, { traceId: mail.traceId });
  }
}
