-- The sandbox airline's own record of issue, void and cancel operations, keyed by our operation id: it outlives
-- the app's process, as a real airline's does, so operations left in flight by a crash can be reconciled.
CREATE SCHEMA IF NOT EXISTS sandbox;
CREATE TABLE IF NOT EXISTS sandbox.operations (
  operation_id text PRIMARY KEY,
  entry jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
