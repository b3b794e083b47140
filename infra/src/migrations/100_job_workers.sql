-- The graphile-worker workers of each running jobs process (infra/src/jobs/dead-workers.ts, issue 26): a process
-- holds an advisory lock on its instance for as long as it lives, so another process (or its own restart) can tell a
-- dead one's workers and unlock the jobs they held at once, rather than after the library's four-hour expiry.
CREATE TABLE app.job_workers (
  worker_id  text PRIMARY KEY,
  instance   text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_workers_instance ON app.job_workers (instance);
