-- Mail with an HTML part and attachments (issue 24: the traveller's itinerary with its PDFs): the dev outbox keeps
-- both, so a developer or a test reads the mail as it went out.
ALTER TABLE app.dev_outbox ADD COLUMN html text;
CREATE TABLE app.dev_outbox_attachments (
  message_id   bigint NOT NULL REFERENCES app.dev_outbox (id) ON DELETE CASCADE,
  position     int NOT NULL,
  filename     text NOT NULL,
  content_type text NOT NULL,
  content      bytea NOT NULL,
  PRIMARY KEY (message_id, position)
);

-- The itinerary e-mails queued, one row per ItineraryMailed event, written with its send-itinerary job in one
-- transaction like app.reminder_mails: the booking sweep queues each recorded mail still without a row.
CREATE TABLE app.itinerary_mails (
  mail_id   text PRIMARY KEY,
  locator   text NOT NULL,
  queued_at timestamptz NOT NULL DEFAULT now(),
  job_id    text
);

-- Issued bookings whose on-issue itinerary was decided (mailed, or not by the company's setting). Bookings issued
-- before this table existed had no such mail and get none now.
CREATE TABLE app.itinerary_on_issue (
  locator    text PRIMARY KEY,
  decided_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO app.itinerary_on_issue (locator)
SELECT DISTINCT substr(stream_id, length('booking-') + 1) FROM es.events
 WHERE event_type = 'TicketsIssued' AND stream_id LIKE 'booking-%'
ON CONFLICT DO NOTHING;
