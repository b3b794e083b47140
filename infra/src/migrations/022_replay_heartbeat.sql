-- Replays started from the audit screen say they are alive (issue 14): the process running one stamps heartbeat_at
-- every few seconds, so a run whose process died reads as failed within half a minute, not after an hour.
ALTER TABLE app.replay_runs ADD COLUMN heartbeat_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX replay_runs_active_heartbeat_idx ON app.replay_runs (heartbeat_at) WHERE status IN ('queued', 'running');
