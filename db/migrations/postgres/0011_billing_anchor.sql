-- See the SQLite migration 0022: the billing day is anchored (DESIGN §13).
ALTER TABLE subscriptions ADD COLUMN billing_anchor BIGINT;

UPDATE subscriptions SET billing_anchor = CASE
    WHEN first.paid_at % 86400000 = subscriptions.end_date % 86400000
      AND extract(day FROM to_timestamp(first.paid_at / 1000.0) AT TIME ZONE 'UTC')
        >= extract(day FROM to_timestamp(subscriptions.end_date / 1000.0) AT TIME ZONE 'UTC')
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
