-- Search results are supplier answers, not business history: a cache to book from, so UNLOGGED (no WAL, no fsync;
-- a crash empties it and agents search again).
CREATE UNLOGGED TABLE app.search_results (
  id          text PRIMARY KEY,
  user_id     text NOT NULL,
  company_id  text NOT NULL,
  channel_id  text NOT NULL,
  request     json NOT NULL,
  result      json NOT NULL,
  filters     json NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX search_results_created_idx ON app.search_results (created_at);
