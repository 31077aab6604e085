-- The billing day is anchored (DESIGN §13), as Stripe's billing_cycle_anchor: the moment the
-- subscription's first paid period began. Every period ends on the anchor's day of the month
-- (UTC), or on the last day of a shorter month, instead of drifting to the 28th for ever
-- after one February. Set when a period starts (bff/modules/subscriptions/billing-anchor.ts).
ALTER TABLE subscriptions ADD COLUMN billing_anchor INTEGER;

-- Existing subscriptions, as best known: the first paid period began at the first payment
-- (start_date), or a trial's days after it. Kept only where the period end still runs on
-- that grid: the same time of day, and a day of the month no later than the anchor's (a
-- drift only ever moves it earlier). Otherwise (a purchase added days to the period) the
-- period end is the anchor from now on.
UPDATE subscriptions SET billing_anchor = CASE
    WHEN first.paid_at % 86400000 = subscriptions.end_date % 86400000
      AND CAST(strftime('%d', first.paid_at / 1000, 'unixepoch') AS INTEGER)
        >= CAST(strftime('%d', subscriptions.end_date / 1000, 'unixepoch') AS INTEGER)
    THEN first.paid_at
    ELSE subscriptions.end_date
  END
FROM (
  SELECT s.id, s.start_date + CASE WHEN EXISTS (SELECT 1 FROM payments p WHERE p.subscription_id = s.id
      AND p.kind = 'first' AND p.is_trial = 1 AND p.status IN ('completed', 'refunded'))
    THEN s.trial_days * 86400000 ELSE 0 END AS paid_at
  FROM subscriptions s WHERE s.start_date IS NOT NULL AND s.end_date IS NOT NULL
) AS first
WHERE first.id = subscriptions.id;
