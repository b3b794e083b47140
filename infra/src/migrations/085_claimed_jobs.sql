-- A mail claimed once and queued as a job in one statement (issue 26): the claim's row, its job and the job's id on
-- the row, as the transaction of BEGIN, INSERT, add_job, UPDATE and COMMIT wrote them (five statements per mail),
-- with the same outcome: the row and its job both commit or neither, and a mail claimed before queues nothing.

-- A job as JobQueue.spec describes it (infra/src/jobs/runtime.ts), queued as JobQueue.sendIn queues one; its id.
CREATE FUNCTION app.add_job_spec(p_job jsonb) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  RETURN (
    SELECT j.id::text FROM graphile_worker.add_job(
      identifier => p_job->>'identifier',
      payload => (p_job->'payload')::json,
      run_at => coalesce((p_job->>'run_at')::timestamptz,
                         now() + (p_job->>'delay_ms')::double precision * interval '1 millisecond'),
      max_attempts => (p_job->>'max_attempts')::int,
      job_key => p_job->>'job_key',
      job_key_mode => p_job->>'job_key_mode') j);
END $$;

-- An itinerary mail (app.itinerary_mails) claimed and queued; null when it was claimed already. p_on_issue: the mail
-- on issue, whose booking is marked decided (app.itinerary_on_issue) by the same statement, queued or not.
CREATE FUNCTION app.queue_itinerary_mail(p_mail_id text, p_locator text, p_job jsonb, p_on_issue boolean)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_job text;
BEGIN
  IF p_on_issue THEN
    INSERT INTO app.itinerary_on_issue (locator) VALUES (p_locator) ON CONFLICT DO NOTHING;
  END IF;
  INSERT INTO app.itinerary_mails (mail_id, locator) VALUES (p_mail_id, p_locator) ON CONFLICT (mail_id) DO NOTHING;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  v_job := app.add_job_spec(p_job);
  UPDATE app.itinerary_mails SET job_id = v_job WHERE mail_id = p_mail_id;
  RETURN v_job;
END $$;

-- An agent's notification mail (app.notification_mails) claimed, and queued unless p_job is null (a recipient without
-- an address: the claim settles it); null when claimed already or not queued.
CREATE FUNCTION app.queue_notification_mail(p_notification_id text, p_user_id text, p_job jsonb) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  v_job text;
BEGIN
  INSERT INTO app.notification_mails (notification_id, user_id) VALUES (p_notification_id, p_user_id)
  ON CONFLICT DO NOTHING;
  IF NOT FOUND OR p_job IS NULL THEN
    RETURN NULL;
  END IF;
  v_job := app.add_job_spec(p_job);
  UPDATE app.notification_mails SET job_id = v_job WHERE notification_id = p_notification_id;
  RETURN v_job;
END $$;
