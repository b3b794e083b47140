-- The agents' notification e-mails claimed and queued a sweep's batch at a time (issue 26): one statement claims the
-- batch's notifications (a recipient without an address is settled by the claim alone) and queues one send-mails
-- job with the mails of those it claimed (a send-mail job per mail was: a fetch and a completion each). The job marks
-- each mail sent once the mail server took it, so a job run again sends only the rest.
ALTER TABLE app.notification_mails ADD COLUMN sent_at timestamptz;

-- p_ids/p_user_ids: the batch's notifications and their recipients; p_job: the send-mails job as JobQueue.spec
-- describes it, its payload's `mails` (each with its notification_id) narrowed here to those claimed now. Answers the
-- job's id (null when no mail was claimed) and how many mails it carries.
CREATE FUNCTION app.queue_notification_mail_batch(
  p_ids text[], p_user_ids text[], p_job jsonb, OUT job_id text, OUT queued int)
LANGUAGE plpgsql AS $$
DECLARE
  v_mails jsonb;
BEGIN
  WITH claimed AS (
    INSERT INTO app.notification_mails (notification_id, user_id)
    SELECT u.id, u.user_id FROM unnest(p_ids, p_user_ids) AS u(id, user_id)
    ON CONFLICT DO NOTHING
    RETURNING app.notification_mails.notification_id)
  SELECT jsonb_agg(m ORDER BY m->>'notification_id') INTO v_mails
    FROM jsonb_array_elements(p_job->'payload'->'data'->'mails') m
   WHERE m->>'notification_id' IN (SELECT c.notification_id FROM claimed c);
  queued := coalesce(jsonb_array_length(v_mails), 0);
  IF queued = 0 THEN
    RETURN;
  END IF;
  job_id := app.add_job_spec(jsonb_set(p_job, '{payload,data,mails}', v_mails));
  UPDATE app.notification_mails n SET job_id = queue_notification_mail_batch.job_id
   WHERE n.notification_id IN (SELECT m->>'notification_id' FROM jsonb_array_elements(v_mails) m);
END $$;
