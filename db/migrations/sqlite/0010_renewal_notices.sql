-- The pre-charge notice of the 2026 subscription law (DESIGN §13(a)): a renewal is charged
-- only after a notice for its period went out 24 hours to 7 days before, and never for
-- more than that notice stated. One row per notice queued; its mail says when it went out.
CREATE TABLE renewal_notices (
  id INTEGER PRIMARY KEY,
  subscription_id INTEGER NOT NULL REFERENCES subscriptions (id),
  period_index INTEGER NOT NULL,
  mail_id INTEGER NOT NULL UNIQUE REFERENCES mail_outbox (id),
  -- What the notice stated: the charge's moment and amount (minor units).
  charge_at INTEGER NOT NULL,
  amount INTEGER NOT NULL CHECK (amount > 0),
  created_at INTEGER NOT NULL
);
CREATE INDEX renewal_notices_by_period ON renewal_notices (subscription_id, period_index, id);
