-- Plans of the AI admin assistant (issue 13): what POST /admin_panel/ask proposed, kept server side so that
-- POST /admin_panel/execute runs exactly that, for the same user, before it expires, at most once. A plan changes
-- nothing by itself, so it is not an event: the events its execution writes name it as their causation.
CREATE TABLE app.assistant_plans (
  id          uuid PRIMARY KEY,
  user_id     text NOT NULL,
  user_type   text NOT NULL,
  request     text NOT NULL,
  provider    text NOT NULL,
  steps       jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  status      text NOT NULL DEFAULT 'ready' CHECK (status IN ('ready', 'running', 'executed', 'failed')),
  executed_at timestamptz,
  results     jsonb
);
CREATE INDEX assistant_plans_user ON app.assistant_plans (user_id, created_at DESC);
