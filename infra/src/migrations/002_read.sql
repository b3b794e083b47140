-- Read models live in schema `read`; each projection's tables carry its generation (`name_g3`) and the
-- un-suffixed view points at the generation in service, so a rebuild can be built side by side.
CREATE SCHEMA IF NOT EXISTS read;

CREATE TABLE read.projections (
  name        text PRIMARY KEY,
  generation  int NOT NULL,          -- generation in service
  code_version int NOT NULL,         -- projection code version that built it
  switched_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE read.checkpoints (
  projection  text NOT NULL,
  generation  int NOT NULL,
  last_tx     xid8 NOT NULL DEFAULT '0',
  last_gp     bigint NOT NULL DEFAULT 0,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (projection, generation)
);
