-- The agent is reminded of a schedule change again and again while it waits unanswered (issue 24.3), not once: one
-- row per reminder round (round n is due REMIND_EVERY after the first), so each round is mailed once, across
-- restarts. The traveller's mail is round 0, as every row written before.
ALTER TABLE app.schedule_change_mails ADD COLUMN round int NOT NULL DEFAULT 0;
ALTER TABLE app.schedule_change_mails DROP CONSTRAINT schedule_change_mails_pkey;
ALTER TABLE app.schedule_change_mails ADD PRIMARY KEY (change_id, kind, round);
