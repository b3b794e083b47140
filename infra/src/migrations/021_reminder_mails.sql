-- The ticketing-deadline watchdog's reminder e-mails queued, one row per booking (issue 10). A row and its send-mail
-- job are written in one transaction, so a crash leaves both or neither; the deadline sweep queues, from the
-- TimeLimitReminderSent events, each reminder still without a row. Reminders recorded before this table existed
-- were mailed already.
CREATE TABLE app.reminder_mails (
  locator   text PRIMARY KEY,
  queued_at timestamptz NOT NULL DEFAULT now(),
  job_id    text
);
INSERT INTO app.reminder_mails (locator)
SELECT DISTINCT data->>'locator' FROM es.events WHERE event_type = 'TimeLimitReminderSent'
ON CONFLICT DO NOTHING;
