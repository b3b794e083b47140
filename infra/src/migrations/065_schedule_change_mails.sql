-- Schedule-change e-mails queued (issue 24.3), one row per change and kind: `traveller` (the change, to the booking's
-- contact address) and `reminder` (to the agent, while the change waits unanswered). A row and its send-mail job are
-- written in one transaction, so a crash leaves both or neither; the schedule-change sweep queues each one missing.
CREATE TABLE app.schedule_change_mails (
  change_id text NOT NULL,
  kind      text NOT NULL CHECK (kind IN ('traveller', 'reminder')),
  locator   text NOT NULL,
  queued_at timestamptz NOT NULL DEFAULT now(),
  job_id    text,
  PRIMARY KEY (change_id, kind)
);
