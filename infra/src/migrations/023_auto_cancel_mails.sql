-- The e-mails telling an agent the ticketing-deadline watchdog cancelled a held booking (issue 21), one row per
-- booking, written with its send-mail job in one transaction like app.reminder_mails: the deadline sweep queues,
-- from the HeldBookingAutoCancelled events, each cancellation still without a row. Those recorded before this table
-- existed had no e-mail and get none now (the in-app notice told them).
CREATE TABLE app.auto_cancel_mails (
  locator   text PRIMARY KEY,
  queued_at timestamptz NOT NULL DEFAULT now(),
  job_id    text
);
INSERT INTO app.auto_cancel_mails (locator)
SELECT DISTINCT data->>'locator' FROM es.events WHERE event_type = 'HeldBookingAutoCancelled'
ON CONFLICT DO NOTHING;
