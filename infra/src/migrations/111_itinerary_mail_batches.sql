-- The itinerary mails on issue claimed and queued a sweep's batch at a time (issue 26): one statement marks the
-- batch's bookings decided, claims their mails and queues one send-itineraries job naming the mails it claimed (a
-- job and a statement per mail were: claim, read, send and done cost four statements a mail). The job marks each
-- mail sent once the mail server took it, so a job run again (its process killed, a mail refused) sends only the rest.
ALTER TABLE app.itinerary_mails ADD COLUMN sent_at timestamptz;

-- p_decided: the batch's bookings, decided whether mailed or not; p_mail_ids/p_locators: their recorded mails; p_job:
-- the send-itineraries job as JobQueue.spec describes it, its payload's `mails` replaced by those claimed here (a
-- mail claimed before, by an earlier sweep or its drain, is not claimed again). Answers the job's id (null when no
-- mail was claimed) and how many mails it carries.
CREATE FUNCTION app.queue_itinerary_mail_batch(
  p_decided text[], p_mail_ids text[], p_locators text[], p_job jsonb, OUT job_id text, OUT queued int)
LANGUAGE plpgsql AS $$
DECLARE
  v_claimed jsonb;
BEGIN
  INSERT INTO app.itinerary_on_issue (locator) SELECT unnest(p_decided) ON CONFLICT DO NOTHING;
  WITH claimed AS (
    INSERT INTO app.itinerary_mails (mail_id, locator)
    SELECT u.mail_id, u.locator FROM unnest(p_mail_ids, p_locators) AS u(mail_id, locator)
    ON CONFLICT (mail_id) DO NOTHING
    RETURNING app.itinerary_mails.mail_id, app.itinerary_mails.locator)
  SELECT jsonb_agg(jsonb_build_object('locator', c.locator, 'mail_id', c.mail_id) ORDER BY c.mail_id)
    INTO v_claimed FROM claimed c;
  queued := coalesce(jsonb_array_length(v_claimed), 0);
  IF queued = 0 THEN
    RETURN;
  END IF;
  job_id := app.add_job_spec(jsonb_set(p_job, '{payload,data,mails}', v_claimed));
  UPDATE app.itinerary_mails m SET job_id = queue_itinerary_mail_batch.job_id
   WHERE m.mail_id IN (SELECT c->>'mail_id' FROM jsonb_array_elements(v_claimed) c);
END $$;
