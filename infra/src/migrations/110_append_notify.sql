-- An append's NOTIFYs sent by its own statement (issue 26): the feed's wake-up and its streams' change notice for the
-- other processes were a statement of their own after every committed append (a transaction and a round trip, about
-- 1.5 of a booking flow's statements). NOTIFY is transactional: PostgreSQL delivers it when the append's transaction
-- commits and never when it rolls back, so a listener still hears of committed appends only. The channels and
-- payloads come from the app (EventStore's `notify` option), one NOTIFY per pair; identical pairs of one transaction
-- are delivered once.

-- es.append, then the NOTIFYs; an append refused raises before any of them.
CREATE FUNCTION es.append_notify(p_appends jsonb, p_channels text[], p_payloads text[])
RETURNS TABLE (stream_id text, version bigint, transaction_id xid8, last_global_position bigint)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT * FROM es.append(p_appends);
  PERFORM pg_notify(n.channel, n.payload) FROM unnest(p_channels, p_payloads) AS n(channel, payload);
END;
$$;

-- es.append_group, then the NOTIFYs when any command of the group appended (a group whose every command was refused
-- commits nothing to announce). The payloads name the streams of every command: those of a command refused beside
-- others are announced too, which only drops caches that were still right.
CREATE FUNCTION es.append_group_notify(p_commands jsonb, p_channels text[], p_payloads text[])
RETURNS TABLE (command_index int, stream text, stream_version bigint, tx xid8, gp bigint, error_code text,
               error_detail text, error_message text)
LANGUAGE plpgsql AS $$
DECLARE
  v_appended boolean := false;
  v_row record;
BEGIN
  FOR v_row IN SELECT * FROM es.append_group(p_commands) LOOP
    command_index := v_row.command_index; stream := v_row.stream; stream_version := v_row.stream_version;
    tx := v_row.tx; gp := v_row.gp; error_code := v_row.error_code; error_detail := v_row.error_detail;
    error_message := v_row.error_message;
    v_appended := v_appended OR v_row.gp IS NOT NULL;
    RETURN NEXT;
  END LOOP;
  IF v_appended THEN
    PERFORM pg_notify(n.channel, n.payload) FROM unnest(p_channels, p_payloads) AS n(channel, payload);
  END IF;
END;
$$;
