-- A projector's batch goes to the server as one text: BEGIN, the checkpoint's compare-and-set, the read-model
-- statements, COMMIT. The compare-and-set raises (SQLSTATE SK001) when it matched no row (another instance moved the
-- checkpoint, or a rebuild took the generation out of service), so the statements after it never run.
CREATE FUNCTION read.checkpoint_moved(moved bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF moved <> 1 THEN
    RAISE EXCEPTION 'checkpoint moved by another instance' USING ERRCODE = 'SK001';
  END IF;
END;
$$;
