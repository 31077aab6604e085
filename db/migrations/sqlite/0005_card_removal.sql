-- Card removal (DESIGN §13(b)): when the customer deleted the saved card of this
-- subscription. The token itself is gone; this keeps the fact and the moment, for the
-- cabinet ("auto-renewal is off"), the operator panel and the end-of-period expiry.
ALTER TABLE subscriptions ADD COLUMN card_removed_at INTEGER;
-- The renewal pass closes such subscriptions when their period ends; this keeps that
-- look-up off a scan of every subscription.
CREATE INDEX subscriptions_card_removed_ending ON subscriptions (end_date)
  WHERE status = 'CANCELED' AND card_removed_at IS NOT NULL;
