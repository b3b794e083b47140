-- The event store: the single source of truth (DESIGN.md section 3).
CREATE SCHEMA IF NOT EXISTS es;

CREATE TABLE es.streams (
  stream_id   text PRIMARY KEY,
  stream_type text NOT NULL,
  version     bigint NOT NULL,
  last_tx     xid8 NOT NULL
);

CREATE SEQUENCE es.global_position_seq;

CREATE TABLE es.events (
  global_position bigint NOT NULL DEFAULT nextval('es.global_position_seq'),
  transaction_id  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id       text NOT NULL,
  stream_position bigint NOT NULL,
  event_id        uuid NOT NULL UNIQUE,
  event_type      text NOT NULL,
  data            jsonb NOT NULL,
  metadata        jsonb NOT NULL,
  recorded_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (stream_id, stream_position)
);
CREATE INDEX events_feed_idx ON es.events (transaction_id, global_position);

-- Appends to one or more streams atomically.
-- p_appends: [{stream_id, stream_type, expected, events: [{event_id, event_type, data, metadata}]}]
-- expected: 'any' | 'no_stream' | 'stream_exists' | '<n>' (exact version; version = last stream position, 0 = none).
-- Every expected version is checked before any sequence number is taken, so a refused append leaves no gap.
-- Returns one row per stream: its version after the append, plus the transaction id and last global position
-- (for a retry of an append already stored: the original append's, so the retry answers as the original did).
CREATE FUNCTION es.append(p_appends jsonb)
RETURNS TABLE (stream_id text, version bigint, transaction_id xid8, last_global_position bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_tx xid8 := pg_current_xact_id();
  v_append jsonb;
  v_stream text;
  v_expected text;
  v_version bigint;
  v_last_tx xid8;
  v_count int;
  v_existing int;
  v_in_stream int;
  v_done_version bigint;
  v_done_tx xid8;
  v_done_gp bigint;
  v_created boolean;
  v_versions bigint[] := '{}';
  v_idempotent boolean[] := '{}';
  v_created_here boolean[] := '{}';
  v_done_txs xid8[] := '{}';
  v_done_gps bigint[] := '{}';
  v_gp bigint := NULL;
  i int := 0;
BEGIN
  -- Pass 1: lock streams in a stable order (no deadlocks), check idempotency, expected version and order.
  FOR v_append IN SELECT value FROM jsonb_array_elements(p_appends) ORDER BY value->>'stream_id' LOOP
    v_stream := v_append->>'stream_id';
    v_expected := v_append->>'expected';
    v_count := jsonb_array_length(v_append->'events');

    IF v_count = 0 THEN
      -- An empty append writes nothing, not even the stream row; the expected version is still checked.
      SELECT coalesce(max(s.version), 0), NULL INTO v_version, v_last_tx FROM es.streams s WHERE s.stream_id = v_stream;
    ELSE
      -- Lock the stream, or create it already at its new version (an uncommitted row locks it just as well).
      -- The likelier statement goes first: one statement takes the lock on the common path.
      v_created := false;
      IF v_expected IN ('no_stream', '0') THEN
        INSERT INTO es.streams AS s (stream_id, stream_type, version, last_tx)
        VALUES (v_stream, v_append->>'stream_type', v_count, v_tx)
        ON CONFLICT ON CONSTRAINT streams_pkey DO NOTHING
        RETURNING true INTO v_created;
        v_created := coalesce(v_created, false);
      END IF;
      IF NOT v_created THEN
        SELECT s.version, s.last_tx INTO v_version, v_last_tx FROM es.streams s WHERE s.stream_id = v_stream FOR UPDATE;
        IF NOT FOUND THEN
          INSERT INTO es.streams AS s (stream_id, stream_type, version, last_tx)
          VALUES (v_stream, v_append->>'stream_type', v_count, v_tx)
          ON CONFLICT ON CONSTRAINT streams_pkey DO NOTHING
          RETURNING true INTO v_created;
          v_created := coalesce(v_created, false);
          IF NOT v_created THEN -- created by a concurrent append meanwhile
            SELECT s.version, s.last_tx INTO v_version, v_last_tx FROM es.streams s WHERE s.stream_id = v_stream FOR UPDATE;
          END IF;
        END IF;
      END IF;
      IF v_created THEN
        v_version := 0;
        v_last_tx := NULL;
      END IF;

      -- Checked under the stream's lock, so a retry racing its original sees the original's events.
      SELECT count(*), count(*) FILTER (WHERE e.stream_id = v_stream),
             max(e.stream_position) FILTER (WHERE e.stream_id = v_stream), max(e.transaction_id),
             max(e.global_position) FILTER (WHERE e.stream_id = v_stream)
        INTO v_existing, v_in_stream, v_done_version, v_done_tx, v_done_gp
        FROM es.events e
       -- = ANY(ARRAY(...)) probes the event_id index; an IN (subquery) here plans as a scan of every event.
       WHERE e.event_id = ANY (ARRAY(SELECT (x->>'event_id')::uuid FROM jsonb_array_elements(v_append->'events') x));
      IF v_existing > 0 AND v_existing = v_count AND v_in_stream = v_count THEN
        -- A retry of an append that already happened: answer as the original did, write nothing.
        v_versions := v_versions || v_done_version;
        v_idempotent := v_idempotent || true;
        v_created_here := v_created_here || false;
        v_done_txs := v_done_txs || v_done_tx;
        v_done_gps := v_done_gps || v_done_gp;
        CONTINUE;
      ELSIF v_existing > 0 THEN
        RAISE EXCEPTION 'partial re-append to stream %', v_stream
          USING ERRCODE = 'P0002', DETAIL = json_build_object('stream_id', v_stream)::text;
      END IF;
    END IF;

    IF NOT (
      v_expected = 'any'
      OR (v_expected = 'no_stream' AND v_version = 0)
      OR (v_expected = 'stream_exists' AND v_version > 0)
      OR (v_expected ~ '^[0-9]+$' AND v_version = v_expected::bigint)
    ) THEN
      RAISE EXCEPTION 'wrong expected version on stream %: expected %, actual %', v_stream, v_expected, v_version
        USING ERRCODE = 'P0001',
              DETAIL = json_build_object('stream_id', v_stream, 'expected', v_expected, 'actual', v_version)::text;
    END IF;

    -- Stream order guard: an older transaction appending after a newer one would be delivered out of order.
    IF v_last_tx IS NOT NULL AND v_last_tx > v_tx THEN
      RAISE EXCEPTION 'stream % was appended by a newer transaction; retry', v_stream
        USING ERRCODE = '40001';
    END IF;
    v_versions := v_versions || v_version;
    v_idempotent := v_idempotent || false;
    v_created_here := v_created_here || (v_count > 0 AND v_created);
    v_done_txs := v_done_txs || NULL::xid8;
    v_done_gps := v_done_gps || NULL::bigint;
  END LOOP;

  -- Pass 2: insert, in the same stable order.
  FOR v_append IN SELECT value FROM jsonb_array_elements(p_appends) ORDER BY value->>'stream_id' LOOP
    i := i + 1;
    v_stream := v_append->>'stream_id';
    v_version := v_versions[i];
    IF v_idempotent[i] THEN
      stream_id := v_stream; version := v_version; transaction_id := v_done_txs[i]; last_global_position := v_done_gps[i];
      RETURN NEXT;
      CONTINUE;
    END IF;
    v_count := jsonb_array_length(v_append->'events');
    IF v_count = 0 THEN
      stream_id := v_stream; version := v_version; transaction_id := NULL; last_global_position := NULL;
      RETURN NEXT;
      CONTINUE;
    END IF;

    WITH inserted AS (
      INSERT INTO es.events (stream_id, stream_position, event_id, event_type, data, metadata)
      SELECT v_stream, v_version + x.ord, (x.value->>'event_id')::uuid, x.value->>'event_type',
             x.value->'data', x.value->'metadata'
        FROM jsonb_array_elements(v_append->'events') WITH ORDINALITY AS x(value, ord)
       ORDER BY x.ord
      RETURNING global_position
    )
    SELECT max(global_position) INTO v_gp FROM inserted;

    IF NOT v_created_here[i] THEN
      UPDATE es.streams s SET version = v_version + v_count, last_tx = v_tx WHERE s.stream_id = v_stream;
    END IF;
    stream_id := v_stream; version := v_version + v_count; transaction_id := v_tx; last_global_position := v_gp;
    RETURN NEXT;
  END LOOP;
END;
$$;
