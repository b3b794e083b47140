-- Each traveller's own key (issue 23, item 6: crypto-shredding). The personal fields of a traveller's events are
-- sealed with it (AES-256-CBC); erasure deletes the row, so those fields can never be read again while the events,
-- and the hash chain over them, stay as they were stored. Kept here, outside the event store, on purpose.
-- pgcrypto lets the travellers projection unseal in the statement that writes its row.
CREATE EXTENSION IF NOT EXISTS pgcrypto;

CREATE TABLE app.traveller_keys (
  traveller_id text PRIMARY KEY,
  company_id   text NOT NULL,
  key          bytea NOT NULL CHECK (octet_length(key) = 32),
  created_at   timestamptz NOT NULL DEFAULT now()
);
