-- The payer's bank may end an SBP autopay binding (revoked or closed in its app: Fail 6001,
-- 6010, 6011). Its token can never be charged again, so it is forgotten as a card removal
-- forgets a card (DESIGN §13(b)); who ended the saved method decides what the cabinet, the
-- panel and the mail say. Every removal before this one was the customer's own.
ALTER TABLE subscriptions ADD COLUMN card_removed_by TEXT CHECK (card_removed_by IN ('customer', 'bank'));
UPDATE subscriptions SET card_removed_by = 'customer' WHERE card_removed_at IS NOT NULL;

-- The customer is told by a mail kind of its own, sbp_autopay_canceled. SQLite changes a
-- CHECK only by rebuilding its table; renewal_notices refers to mail_outbox, so foreign keys
-- are checked at the commit, by which time every row (with its id) is back.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE mail_outbox_before_0030 AS SELECT * FROM mail_outbox;
DROP TABLE mail_outbox;
CREATE TABLE mail_outbox (
  id INTEGER PRIMARY KEY,
  user_id INTEGER REFERENCES users (id),
  kind TEXT NOT NULL CHECK (kind IN ('trial_started', 'renewal_notice', 'payment_succeeded',
    'payment_failed', 'subscription_canceled', 'card_removed', 'subscription_ended', 'refund_made',
    'sbp_autopay_canceled')),
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
INSERT INTO mail_outbox SELECT * FROM mail_outbox_before_0030;
DROP TABLE mail_outbox_before_0030;
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX mail_outbox_by_user ON mail_outbox (user_id, id);
CREATE INDEX mail_outbox_by_recipient ON mail_outbox (recipient COLLATE NOCASE, id);
