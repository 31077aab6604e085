-- Payments run through more than one provider, by card or by SBP (DESIGN §6, "Payment
-- methods and providers"). Each payment names the provider that took it and the method it
-- was paid by: a refund goes back through that provider, a pending attempt is looked up
-- there. Every payment made before this migration went through CloudPayments by card.
ALTER TABLE payments ADD COLUMN provider TEXT NOT NULL DEFAULT 'cloudpayments'
  CHECK (provider IN ('cloudpayments', 'yookassa'));
ALTER TABLE payments ADD COLUMN method TEXT NOT NULL DEFAULT 'card' CHECK (method IN ('card', 'sbp'));
-- A subscription's one saved method: its token (card_token) is held by this provider, and
-- renewals charge it there.
ALTER TABLE subscriptions ADD COLUMN saved_provider TEXT NOT NULL DEFAULT 'cloudpayments'
  CHECK (saved_provider IN ('cloudpayments', 'yookassa'));
ALTER TABLE subscriptions ADD COLUMN saved_method TEXT NOT NULL DEFAULT 'card'
  CHECK (saved_method IN ('card', 'sbp'));
-- An SBP order's QR stops taking payment at this time (the order is then unpaid, and says so).
ALTER TABLE payments ADD COLUMN qr_expires_at INTEGER;
-- A payment the bank took for an order that was already paid (an SBP QR paid twice): it
-- buys nothing and goes back at once. Claimed before its refund is asked for, as payments are.
CREATE TABLE duplicate_payments (
  transaction_id TEXT PRIMARY KEY,
  payment_id INTEGER NOT NULL REFERENCES payments (id),
  provider TEXT NOT NULL CHECK (provider IN ('cloudpayments', 'yookassa')),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  currency TEXT NOT NULL CHECK (currency IN ('RUB', 'KZT')),
  refunded_at INTEGER,
  refund_claim TEXT,
  refund_claimed_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX duplicate_payments_to_refund ON duplicate_payments (created_at) WHERE refunded_at IS NULL;
