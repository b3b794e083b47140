-- The agents' notification e-mails queued (issue 24.2), one row per notification (its id is the booking event's id
-- and the recipient's): a row and its send-mail job are written in one transaction, so a crash leaves both or
-- neither, and a notification projected again (a replay, a rebuild) finds its row and is never mailed twice.
CREATE TABLE app.notification_mails (
  notification_id text PRIMARY KEY,
  user_id         text NOT NULL,
  queued_at       timestamptz NOT NULL DEFAULT now(),
  job_id          text
);
