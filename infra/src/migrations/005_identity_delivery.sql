-- How a one-time code was delivered (the audit trail tells e-mail and voice sign-ins apart).
ALTER TABLE app.otp_codes ADD COLUMN channel text NOT NULL DEFAULT 'email' CHECK (channel IN ('email', 'voice'));
CREATE INDEX otp_codes_expires_idx ON app.otp_codes (expires_at);
CREATE INDEX rate_limits_window_idx ON app.rate_limits (window_start);

-- Mail and voice calls sent while no provider is configured (development): read at /dev/mailbox and /dev/voice.
CREATE TABLE app.dev_outbox (
  id        bigserial PRIMARY KEY,
  kind      text NOT NULL CHECK (kind IN ('mail', 'voice')),
  recipient text NOT NULL,          -- e-mail address or phone number
  email     text,                   -- the account's e-mail (a voice call's recipient is a phone)
  subject   text,
  body      text NOT NULL,
  sent_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dev_outbox_recipient_idx ON app.dev_outbox (kind, recipient, id DESC);
CREATE INDEX dev_outbox_email_idx ON app.dev_outbox (kind, email, id DESC);
