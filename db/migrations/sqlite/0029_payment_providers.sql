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
