-- Group commit, set-based (issue 26). es.append_group ran es.append once per command, each in a subtransaction, and
-- es.append works stream by stream (five statements per stream, PL/pgSQL per event): 125-165 µs of server CPU per
-- one-event command even in groups of 16, against 55-65 µs for a raw single-row INSERT transaction. es.append_set
-- appends the commands of a whole group in five statements whatever its size: the argument unpacked once, one
-- INSERT .. ON CONFLICT DO UPDATE that creates or locks every stream in stream order (as every append locks, so no
-- deadlock) and moves its version where its expected version and the stream order guard hold, one idempotency probe
-- under those locks, one INSERT of every event and one answer. It goes that way only when every command passes every
-- check; otherwise it raises 'SKFB1' having written nothing (es.append_group runs it in a subtransaction) and the group
-- is appended command by command as before (es.append_group_each), which gives every refusal (wrong expected version,
-- partial re-append, stream order) and every idempotent retry its exact answer. A stream named by two commands of a
-- group, an append of no events or a command of no streams goes that way from the start. es.append is unchanged: for
-- one command alone this path costs more than it does.

-- The former es.append_group (086_append_group.sql): each command through es.append in a subtransaction of its own.
ALTER FUNCTION es.append_group(jsonb) RENAME TO append_group_each;

-- Whether a stream at version p_version (0 = none) satisfies an expected version ('any', 'no_stream',
-- 'stream_exists' or an exact '<n>').
CREATE FUNCTION es.expected_holds(p_expected text, p_version bigint) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN p_expected = 'any' THEN true
    WHEN p_expected = 'no_stream' THEN p_version = 0
    WHEN p_expected = 'stream_exists' THEN p_version > 0
    WHEN p_expected ~ '^[0-9]+$' THEN p_version = p_expected::bigint
    ELSE false
  END
$$;

-- p_commands: [{"appends": <es.append's argument>, "release_hold": uuid or null}, ...]. One row per command and
-- stream: its version after the append, the transaction id and the stream's last global position (NULL for an
-- append with no events). Raises SQLSTATE 'SKFB1', having written nothing, when any command would be refused or is
-- a retry of events already stored: run it in a subtransaction and fall back to the stream-by-stream functions.
CREATE FUNCTION es.append_set(p_commands jsonb)
RETURNS TABLE (command_index int, stream text, stream_version bigint, tx xid8, gp bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_tx xid8 := pg_current_xact_id();
  v_cmds int[];
  v_streams text[];
  v_types text[];
  v_expected text[];
  v_counts int[];
  v_holds uuid[];
  v_stored bigint;
  v_distinct int;
  v_locked text[];
  v_old bigint[];
  v_passed int;
  v_last_streams text[];
  v_last_gps bigint[];
BEGIN
  -- Every (command, stream) pair in command order, then stream order (es.append_each's order within a command).
  SELECT array_agg(a.cmd ORDER BY a.cmd, a.stream_id), array_agg(a.stream_id ORDER BY a.cmd, a.stream_id),
         array_agg(a.stream_type ORDER BY a.cmd, a.stream_id),
         array_agg(a.expected ORDER BY a.cmd, a.stream_id),
         array_agg(jsonb_array_length(a.events) ORDER BY a.cmd, a.stream_id),
         count(DISTINCT a.stream_id)::int
    INTO v_cmds, v_streams, v_types, v_expected, v_counts, v_distinct
    FROM jsonb_array_elements(p_commands) WITH ORDINALITY AS c(value, ord),
         LATERAL (SELECT c.ord::int AS cmd, x.* FROM jsonb_to_recordset(c.value->'appends')
                    AS x(stream_id text, stream_type text, expected text, events jsonb)) a;
  -- A stream named twice in the group (its second command's check depends on the first's outcome), an empty append
  -- (checked without a lock) or a command of no streams: the stream-by-stream way.
  IF v_streams IS NULL OR v_distinct < array_length(v_streams, 1) OR 0 = ANY (v_counts)
     OR (SELECT count(DISTINCT u.cmd) FROM unnest(v_cmds) AS u(cmd)) < jsonb_array_length(p_commands) THEN
    RAISE EXCEPTION 'append_set: not for this group' USING ERRCODE = 'SKFB1';
  END IF;

  -- Create every new stream already at its new version, lock every existing one and move its version where the
  -- expected version and the order guard hold; in stream order, as every append locks. A stream whose check fails
  -- is locked but not returned.
  WITH moved AS (
    INSERT INTO es.streams AS s (stream_id, stream_type, version, last_tx)
    SELECT u.stream_id, u.stream_type, u.n, v_tx
      FROM unnest(v_streams, v_types, v_counts) AS u(stream_id, stream_type, n)
     ORDER BY u.stream_id
    ON CONFLICT ON CONSTRAINT streams_pkey DO UPDATE SET version = s.version + EXCLUDED.version, last_tx = EXCLUDED.last_tx
     WHERE s.last_tx <= EXCLUDED.last_tx
       AND es.expected_holds(v_expected[array_position(v_streams, s.stream_id)], s.version)
    RETURNING s.stream_id, s.version
  )
  SELECT array_agg(m.stream_id), array_agg(m.version - u.n),
         count(*) FILTER (WHERE es.expected_holds(u.expected, m.version - u.n))::int
    INTO v_locked, v_old, v_passed
    FROM moved m JOIN unnest(v_streams, v_counts, v_expected) AS u(stream_id, n, expected) USING (stream_id);
  -- A check that failed (a created stream whose expected version wanted one), or events already stored (a retry,
  -- checked under the streams' locks so that a retry racing its original sees the original's events).
  IF coalesce(v_passed, 0) < array_length(v_streams, 1) THEN
    RAISE EXCEPTION 'append_set: a check failed' USING ERRCODE = 'SKFB1';
  END IF;
  -- = ANY (ARRAY(...)) with count(*) probes the event_id index (as es.append_each's check); EXISTS there scans.
  SELECT count(*) INTO v_stored
    FROM es.events e
   WHERE e.event_id = ANY (ARRAY(
           SELECT (x.value->>'event_id')::uuid
             FROM jsonb_array_elements(p_commands) AS c(value), jsonb_array_elements(c.value->'appends') AS a(value),
                  jsonb_array_elements(a.value->'events') AS x(value)));
  IF v_stored > 0 THEN
    RAISE EXCEPTION 'append_set: events already stored' USING ERRCODE = 'SKFB1';
  END IF;

  -- Every event, in command order, then stream order, then the order given.
  WITH inserted AS (
    INSERT INTO es.events (stream_id, stream_position, event_id, event_type, data, metadata)
    SELECT a.value->>'stream_id', v_old[array_position(v_locked, a.value->>'stream_id')] + e.ord,
           (e.value->>'event_id')::uuid, e.value->>'event_type', e.value->'data', e.value->'metadata'
      FROM jsonb_array_elements(p_commands) WITH ORDINALITY AS c(value, ord),
           jsonb_array_elements(c.value->'appends') AS a(value),
           jsonb_array_elements(a.value->'events') WITH ORDINALITY AS e(value, ord)
     ORDER BY c.ord, a.value->>'stream_id', e.ord
    RETURNING es.events.stream_id, global_position
  )
  SELECT array_agg(i.stream_id), array_agg(i.last_gp) INTO v_last_streams, v_last_gps
    FROM (SELECT inserted.stream_id, max(global_position) AS last_gp FROM inserted GROUP BY inserted.stream_id) i;

  SELECT array_agg((c.value->>'release_hold')::uuid) INTO v_holds
    FROM jsonb_array_elements(p_commands) AS c(value) WHERE c.value->>'release_hold' IS NOT NULL;
  IF v_holds IS NOT NULL THEN
    DELETE FROM app.supplier_holds WHERE attempt_id = ANY (v_holds);
  END IF;

  RETURN QUERY
    SELECT u.cmd, u.stream_id, v_old[array_position(v_locked, u.stream_id)] + u.n, v_tx,
           v_last_gps[array_position(v_last_streams, u.stream_id)]
      FROM unnest(v_cmds, v_streams, v_counts) WITH ORDINALITY AS u(cmd, stream_id, n, ord)
     ORDER BY u.ord;
END;
$$;

-- Group commit (086_append_group.sql): every command through es.append_set in one go when all pass, otherwise each
-- command alone with its own answer or refusal (es.append_group_each).
CREATE FUNCTION es.append_group(p_commands jsonb)
RETURNS TABLE (command_index int, stream text, stream_version bigint, tx xid8, gp bigint, error_code text,
               error_detail text, error_message text)
LANGUAGE plpgsql AS $$
DECLARE
  v_cmds int[];
  v_streams text[];
  v_versions bigint[];
  v_txs xid8[];
  v_gps bigint[];
BEGIN
  BEGIN
    SELECT array_agg(s.command_index), array_agg(s.stream), array_agg(s.stream_version), array_agg(s.tx),
           array_agg(s.gp)
      INTO v_cmds, v_streams, v_versions, v_txs, v_gps
      FROM es.append_set(p_commands) s;
  EXCEPTION WHEN SQLSTATE 'SKFB1' THEN
    RETURN QUERY SELECT * FROM es.append_group_each(p_commands);
    RETURN;
  END;
  RETURN QUERY SELECT u.*, NULL::text, NULL::text, NULL::text FROM unnest(v_cmds, v_streams, v_versions, v_txs, v_gps) u;
END;
$$;
