-- The tamper-evident log and the audit index (issue 14). Every event is chained, in the feed's commit-safe global
-- order (transaction_id, global_position), to the one before it by a SHA-256 over its canonical form. A chainer
-- writes the chain behind the appends (es.append and es.events are unchanged, so appends pay nothing for it); see
-- infra/src/audit/chain.ts. The chain rows also index the events by what the history is browsed by.

-- One row per chained event; seq 1, 2, 3... in global order. hash = sha256(previous hash + "\n" + canonical event).
CREATE TABLE es.chain (
  seq             bigint PRIMARY KEY,
  transaction_id  xid8 NOT NULL,
  global_position bigint NOT NULL,
  hash            text NOT NULL,
  -- Copied from the event for the history's filters (the hash covers the event row, not these).
  stream_id       text NOT NULL,
  event_type      text NOT NULL,
  recorded_at     timestamptz NOT NULL,
  locator         text,
  agency_id       text,
  company_id      text,
  actor_id        text,
  trace_id        text,
  -- 's:<stream>', 'l:<locator>', 'a:<agency>', 'c:<company>', 'u:<actor>', 't:<trace>': one GIN index serves every
  -- filter, and a link costs three index entries rather than eight (the chainer writes beside the appends).
  keys            text[] NOT NULL
);
CREATE INDEX chain_keys_idx ON es.chain USING gin (keys);
CREATE INDEX chain_recorded_idx ON es.chain (recorded_at);

-- The chain head at moments in time: exported and kept outside the database, they catch a chain rewritten in it.
CREATE TABLE es.chain_anchors (
  seq             bigint PRIMARY KEY,
  transaction_id  xid8 NOT NULL,
  global_position bigint NOT NULL,
  hash            text NOT NULL,
  anchored_at     timestamptz NOT NULL DEFAULT clock_timestamp()
);
