-- Fare calendars (issue 23.2), kept like search pages: a cache of supplier answers for their owner to open again,
-- so UNLOGGED and purged with the same time to live.
CREATE UNLOGGED TABLE app.fare_calendars (
  id          text PRIMARY KEY,
  user_id     text NOT NULL,
  company_id  text NOT NULL,
  request     json NOT NULL,
  calendar    json NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fare_calendars_created_idx ON app.fare_calendars (created_at);
