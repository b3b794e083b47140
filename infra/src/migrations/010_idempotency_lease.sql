-- A key whose first request is still running is leased to it; the runner renews the lease while it works, so a
-- key whose request died with its process expires and can be used again.
ALTER TABLE app.idempotency_keys
  ADD COLUMN lease_until timestamptz NOT NULL DEFAULT now() + interval '30 seconds';
