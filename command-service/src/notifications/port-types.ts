/*
 * The notification ports themselves, apart from the factory in ports.ts that wires their adapters (dev outbox, SMTP,
 * the job queue): the adapters implement these without importing the factory that imports them.
 */

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** An HTML part beside the text (the itinerary mail); the text stays for clients that show no HTML. */
  html?: string;
  attachments?: MailAttachment[];
  /** The request that sent it, for the log lines of its delivery. */
  traceId?: string;
}

export interface MailAttachment {
  filename: string;
  content_type: string;
  content: Buffer;
}

/** Sends e-mail. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

export interface OutgoingCall {
  /** Phone number in international format. */
  to: string;
  /** The account's e-mail, so a call can be found by either. */
  email: string;
  /** What the call says. */
  text: string;
}

/** Places automated voice calls. */
export interface VoiceCaller {
  call(call: OutgoingCall): Promise<void>;
}

export interface NotificationPorts {
  mailer: Mailer;
  /** Null when no provider places calls (production, for now): voice codes then go by e-mail. */
  voice: VoiceCaller | null;
}
