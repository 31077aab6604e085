-- Messages to customers (DESIGN §14): a row is written in the same transaction as the
-- event it tells of; the mail worker sends it (retries with backoff) and records the outcome.
CREATE TABLE mail_outbox (
  id INTEGER PRIMARY KEY,
  user_id INTEGER REFERENCES users (id),
  kind TEXT NOT NULL CHECK (kind IN ('trial_started', 'renewal_notice', 'payment_succeeded',
    'payment_failed', 'subscription_canceled', 'card_removed', 'subscription_ended', 'refund_made')),
  -- The customer's language when the event happened.
  language TEXT NOT NULL CHECK (language IN ('ru', 'en', 'zh', 'kk')),
  recipient TEXT NOT NULL,
  -- The facts the message states (JSON, see bff/modules/mail/kinds.ts); rendered when sent.
  data TEXT NOT NULL,
  -- One message per event: a second enqueue of the same event is ignored.
  event_key TEXT NOT NULL UNIQUE,
  -- Stable across retries and restarts, so a mail server that saw an attempt can tell.
  message_id TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  -- A worker's claim on the row while it talks to the mail server (real time, ms).
  claimed_until INTEGER,
  last_error TEXT,
  sent_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX mail_outbox_by_user ON mail_outbox (user_id, id);
CREATE INDEX mail_outbox_by_recipient ON mail_outbox (recipient COLLATE NOCASE, id);
