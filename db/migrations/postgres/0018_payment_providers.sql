-- See the SQLite migration 0029: the provider and method of each payment, and of each
-- subscription's saved method.
ALTER TABLE payments ADD COLUMN provider TEXT NOT NULL DEFAULT 'cloudpayments'
  CHECK (provider IN ('cloudpayments', 'yookassa'));
ALTER TABLE payments ADD COLUMN method TEXT NOT NULL DEFAULT 'card' CHECK (method IN ('card', 'sbp'));
ALTER TABLE subscriptions ADD COLUMN saved_provider TEXT NOT NULL DEFAULT 'cloudpayments'
  CHECK (saved_provider IN ('cloudpayments', 'yookassa'));
ALTER TABLE subscriptions ADD COLUMN saved_method TEXT NOT NULL DEFAULT 'card'
  CHECK (saved_method IN ('card', 'sbp'));
