-- Sales: trigram search over sales lines (ticket number, locator, passenger, route), and the spreadsheets built by
-- the `sales-report` job when an export is too large to answer at once (kept a week, downloaded by the requester).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE read.sales_reports (
  id           uuid PRIMARY KEY,
  requested_by text NOT NULL,
  file_name    text NOT NULL,
  lines        int NOT NULL,
  content      bytea NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX ON read.sales_reports (expires_at);
