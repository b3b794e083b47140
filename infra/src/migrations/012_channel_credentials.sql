-- A ticketing channel's supplier credentials, encrypted (AES-256-GCM with CREDENTIALS_KEY): secrets never go into
-- events, logs or answers, so they live here, one row per channel, replaced on every edit.
CREATE TABLE app.channel_credentials (
  channel_id  text PRIMARY KEY,
  iv          bytea NOT NULL,
  ciphertext  bytea NOT NULL,
  tag         bytea NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
