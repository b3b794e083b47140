-- Secrets and sessions: operational state kept out of the immutable event history.
CREATE TABLE app.credentials (
  user_id       text PRIMARY KEY,
  password_hash text NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE app.sessions (
  id_hash     text PRIMARY KEY,         -- sha256 of the cookie value; the value itself is never stored
  user_id     text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  position    text                      -- feed position of the sign-in, for read-your-writes
);
CREATE INDEX sessions_user_idx ON app.sessions (user_id);

CREATE TABLE app.otp_codes (
  email       text NOT NULL,
  purpose     text NOT NULL,            -- sign_in | email_change
  code_hash   text NOT NULL,
  user_id     text,
  new_email   text,
  expires_at  timestamptz NOT NULL,
  attempts    int NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (email, purpose)
);

CREATE TABLE app.rate_limits (
  key          text NOT NULL,
  window_start timestamptz NOT NULL,
  count        int NOT NULL,
  PRIMARY KEY (key, window_start)
);

CREATE TABLE app.api_tokens (
  token_hash text PRIMARY KEY,
  user_id    text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
