-- A command of a group may have been decided on the state another command of the same group leaves a stream at,
-- before that one was answered (EventStore.fold's `unsettled`: a company's charges decided one after the other, issue
-- 26). Its expected version is then the version that command leaves the stream at. When that command is refused, the
-- stream can still be at that version, moved there by another append committed before the group (the refused
-- command was itself decided on a stale state): the check alone would then pass a command decided on a state that
-- never was. So a command names, in "after", the places (1 = the first) of the commands of its group it was decided
-- after, and is refused, as a wrong expected version, when any of them was refused.
CREATE OR REPLACE FUNCTION es.append_group_each(p_commands jsonb)
RETURNS TABLE (command_index int, stream text, stream_version bigint, tx xid8, gp bigint, error_code text,
               error_detail text, error_message text)
LANGUAGE plpgsql AS $$
DECLARE
  v_command jsonb;
  v_index int := 0;
  v_streams text[];
  v_versions bigint[];
  v_txs xid8[];
  v_gps bigint[];
  v_code text;
  v_detail text;
  v_message text;
  v_refused int[] := '{}';
BEGIN
  -- Every existing stream the group appends events to, locked in stream order before any command runs. Locks taken
  -- here belong to the group's transaction: a command refused in its subtransaction below keeps them, which only
  -- holds them until the group commits, as a command appended alone would have.
  PERFORM 1
     FROM es.streams s
    WHERE s.stream_id = ANY (ARRAY(
            SELECT a.value->>'stream_id'
              FROM jsonb_array_elements(p_commands) AS c(value), jsonb_array_elements(c.value->'appends') AS a(value)
             WHERE jsonb_array_length(a.value->'events') > 0))
    ORDER BY s.stream_id
      FOR UPDATE OF s;

  -- In the array's order: the answers name their command by its place (1 = the first).
  FOR v_command IN SELECT x.value FROM jsonb_array_elements(p_commands) WITH ORDINALITY AS x(value, ord) ORDER BY x.ord
  LOOP
    v_index := v_index + 1;
    IF EXISTS (SELECT 1 FROM jsonb_array_elements_text(coalesce(v_command->'after', '[]')) AS a(place)
                WHERE a.place::int = ANY (v_refused)) THEN
      v_refused := v_refused || v_index;
      command_index := v_index; stream := NULL; stream_version := NULL; tx := NULL; gp := NULL;
      error_code := 'P0001';
      error_detail := jsonb_build_object('stream_id', v_command->'appends'->0->>'stream_id',
                                         'expected', v_command->'appends'->0->>'expected', 'actual', -1)::text;
      error_message := 'append: a command it was decided after was refused';
      RETURN NEXT;
      CONTINUE;
    END IF;
    BEGIN
      IF v_command->>'release_hold' IS NOT NULL THEN
        DELETE FROM app.supplier_holds WHERE attempt_id = (v_command->>'release_hold')::uuid;
      END IF;
      SELECT array_agg(a.stream_id), array_agg(a.version), array_agg(a.transaction_id),
             array_agg(a.last_global_position)
        INTO v_streams, v_versions, v_txs, v_gps
        FROM es.append(v_command->'appends') a;
    EXCEPTION WHEN SQLSTATE 'P0001' OR SQLSTATE 'P0002' OR SQLSTATE '40001' THEN
      GET STACKED DIAGNOSTICS v_code = RETURNED_SQLSTATE, v_detail = PG_EXCEPTION_DETAIL,
                              v_message = MESSAGE_TEXT;
      v_refused := v_refused || v_index;
      command_index := v_index; stream := NULL; stream_version := NULL; tx := NULL; gp := NULL;
      error_code := v_code; error_detail := v_detail; error_message := v_message;
      RETURN NEXT;
      CONTINUE;
    END;
    FOR i IN 1 .. coalesce(array_length(v_streams, 1), 0) LOOP
      command_index := v_index; stream := v_streams[i]; stream_version := v_versions[i]; tx := v_txs[i];
      gp := v_gps[i]; error_code := NULL; error_detail := NULL; error_message := NULL;
      RETURN NEXT;
    END LOOP;
    IF coalesce(array_length(v_streams, 1), 0) = 0 THEN
      -- An append of no streams still answers its command.
      command_index := v_index; stream := NULL; stream_version := NULL; tx := NULL; gp := NULL;
      error_code := NULL; error_detail := NULL; error_message := NULL;
      RETURN NEXT;
    END IF;
  END LOOP;
END;
$$;
