-- When a call last used each API token (to the minute), shown on the account page so its owner can tell a token
-- in use from a forgotten or stolen one (issue 21).
ALTER TABLE app.api_tokens ADD COLUMN last_used_at timestamptz;
