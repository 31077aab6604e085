-- See the SQLite migration 0029: the provider and method of each payment, and of each
-- subscription's saved method.
ALTER TABLE payments ADD COLUMN provider TEXT NOT NULL DEFAULT 'cloudpayments'
  CHECK (provider IN ('cloudpayments', 'yookassa'));
ALTER TABLE payments ADD COLUMN method TEXT NOT NULL DEFAULT 'card' CHECK (method IN ('card', 'sbp'));
ALTER TABLE subscriptions ADD COLUMN saved_provider TEXT NOT NULL DEFAULT 'cloudpayments'
  CHECK (saved_provider IN ('cloudpayments', 'yookassa'));
ALTER TABLE subscriptions ADD COLUMN saved_method TEXT NOT NULL DEFAULT 'card'
  CHECK (saved_method IN ('card', 'sbp'));
ALTER TABLE payments ADD COLUMN qr_expires_at BIGINT;
CREATE TABLE duplicate_payments (
  transaction_id TEXT PRIMARY KEY,
  payment_id BIGINT NOT NULL REFERENCES payments (id),
  provider TEXT NOT NULL CHECK (provider IN ('cloudpayments', 'yookassa')),
  amount BIGINT NOT NULL CHECK (amount >= 0),
  currency TEXT NOT NULL CHECK (currency IN ('RUB', 'KZT')),
  refunded_at BIGINT,
  refund_claim TEXT,
  refund_claimed_at BIGINT,
  created_at BIGINT NOT NULL
);
CREATE INDEX duplicate_payments_to_refund ON duplicate_payments (created_at) WHERE refunded_at IS NULL;
