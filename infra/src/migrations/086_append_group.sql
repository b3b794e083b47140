-- Group commit (issue 26): the appends of several concurrent commands in one statement and one transaction. Each
-- command is es.append in a subtransaction of its own, so it gets its own expected-version check and its own answer:
-- a refusal (wrong expected version P0001, partial re-append P0002, stream order 40001) rolls back that command alone
-- and is answered as its row; the others commit together. Any other error fails the whole statement (the caller then
-- appends each command alone). A command may name the supplier hold its append records (release_hold): forgotten in
-- its subtransaction, as EventStore.append's releasingHold does alone.
-- p_commands: [{"appends": <es.append's argument>, "release_hold": uuid or null}, ...]
CREATE FUNCTION es.append_group(p_commands jsonb)
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
BEGIN
  -- In the array's order: the answers name their command by its place (1 = the first).
  FOR v_command IN SELECT x.value FROM jsonb_array_elements(p_commands) WITH ORDINALITY AS x(value, ord) ORDER BY x.ord
  LOOP
    v_index := v_index + 1;
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
