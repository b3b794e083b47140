-- The monthly statements mailed to companies' billing contacts (issue 24, item 4): one row per company and month,
-- written with its send-statement job in one transaction, so a statement is mailed once however often the first
-- day's job runs.
CREATE TABLE app.statement_mails (
  company_id text NOT NULL,
  month      text NOT NULL,
  queued_at  timestamptz NOT NULL DEFAULT now(),
  job_id     text,
  PRIMARY KEY (company_id, month)
);
