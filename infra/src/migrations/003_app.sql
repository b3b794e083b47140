-- Operational state of the command side that is not business history.
CREATE SCHEMA IF NOT EXISTS app;

CREATE TABLE app.idempotency_keys (
  scope        text NOT NULL,
  key          text NOT NULL,
  request_hash text NOT NULL,
  status       int,
  response     jsonb,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key)
);
