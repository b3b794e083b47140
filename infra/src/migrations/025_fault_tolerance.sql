-- Faults the product rides out (issue 29).
-- The readiness probe's write test: emptied and written again on each probe, so its row needs a fresh block (which
-- fails while the disk is full, where a row into a page already allocated might not).
CREATE TABLE app.storage_probe (
  probe text NOT NULL
);

-- A seat hold the supplier granted, recorded before our booking's append and deleted after it: a row older than a
-- few minutes is a hold whose booking was never recorded (the append failed: a full disk, a crash), which the
-- reconcile-operations job cancels at the supplier unless the event store has a booking holding it.
CREATE TABLE app.supplier_holds (
  attempt_id       uuid PRIMARY KEY,
  company_id       text NOT NULL,
  channel_id       text NOT NULL,
  supplier_booking jsonb NOT NULL,
  held_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX supplier_holds_held_at ON app.supplier_holds (held_at);

-- The minute each periodic job was last queued for, by the database's clock (infra/src/jobs/runtime.ts): one run per
-- minute across every process, whatever their own clocks say.
CREATE TABLE app.job_schedule (
  identifier  text PRIMARY KEY,
  last_minute timestamptz NOT NULL
);
