-- See the SQLite migration 0030: who ended a saved method (the customer, or the payer's bank
-- that revoked an SBP autopay binding), and the mail kind that tells of the bank's doing.
ALTER TABLE subscriptions ADD COLUMN card_removed_by TEXT CHECK (card_removed_by IN ('customer', 'bank'));
UPDATE subscriptions SET card_removed_by = 'customer' WHERE card_removed_at IS NOT NULL;
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_kind_check;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_kind_check CHECK (kind IN ('trial_started', 'renewal_notice',
  'payment_succeeded', 'payment_failed', 'subscription_canceled', 'card_removed', 'subscription_ended',
  'refund_made', 'sbp_autopay_canceled'));
