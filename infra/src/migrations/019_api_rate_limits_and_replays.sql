-- Per-token rate limits of the public API and replays started from the audit screen (issue 14).

-- One token bucket per API token, kept under its user's id: a user holds one token at a time, and a token issued
-- anew (PUT /account/api_token) must not come with a full bucket. Every app process takes from this one row with a
-- single UPSERT, so the limit holds however many processes serve the API.
CREATE TABLE app.api_token_buckets (
  user_id     text PRIMARY KEY,
  tokens      double precision NOT NULL,
  refilled_at timestamptz NOT NULL,
  -- Whether the last request that touched the bucket was let through (read back by the same statement).
  allowed     boolean NOT NULL
);

-- A side-by-side replay of a projection (and, once it agreed, its switch), run as a job in a command process; the
-- screen polls its progress here, whichever process serves it.
CREATE TABLE app.replay_runs (
  id           uuid PRIMARY KEY,
  projection   text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('compare', 'switch')),
  status       text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
  started_by   text NOT NULL,
  done_events  bigint NOT NULL DEFAULT 0,
  total_events bigint NOT NULL DEFAULT 0,
  -- The compare report (row counts and checksums per table), once done.
  report       jsonb,
  error        text,
  -- The compare run a switch was asked on.
  compare_id   uuid REFERENCES app.replay_runs (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz
);
CREATE INDEX replay_runs_recent_idx ON app.replay_runs (created_at DESC);
-- One replay of a projection at a time: its side-by-side tables have one name.
CREATE UNIQUE INDEX replay_runs_one_active_idx ON app.replay_runs (projection)
  WHERE status IN ('queued', 'running');
