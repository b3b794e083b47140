-- A result page is 100-200 KB of JSON; PostgreSQL's own TOAST compression (pglz) of it cost about 1.7 ms of server
-- CPU per search. The command service now stores it Brotli-compressed (quality 1, about 7 KB, 0.1 ms off the event
-- loop), and the column is EXTERNAL so the server does not try to compress it again. The table is a cache of
-- supplier answers (UNLOGGED), so it is recreated rather than converted: agents search again.
DROP TABLE app.search_results;
CREATE UNLOGGED TABLE app.search_results (
  id          text PRIMARY KEY,
  user_id     text NOT NULL,
  company_id  text NOT NULL,
  channel_id  text NOT NULL,
  request     json NOT NULL,
  result      bytea NOT NULL,
  filters     json NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE app.search_results ALTER COLUMN result SET STORAGE EXTERNAL;
CREATE INDEX search_results_created_idx ON app.search_results (created_at);
