-- The 1-unit first payment (the trial) is given once per customer and once per card
-- (DESIGN §13): which first payments were trials, and the card each payment used.
ALTER TABLE payments ADD COLUMN is_trial INTEGER NOT NULL DEFAULT 0 CHECK (is_trial IN (0, 1));
-- The card as the gateway describes it: first six, last four and expiry ("MM/YY").
ALTER TABLE payments ADD COLUMN card_first_six TEXT;
ALTER TABLE payments ADD COLUMN card_exp_date TEXT;
-- first six + last four + expiry: the same card whatever token or account it comes with.
ALTER TABLE payments ADD COLUMN card_fingerprint TEXT;
ALTER TABLE subscriptions ADD COLUMN card_fingerprint TEXT;

-- Every first payment so far was a trial.
UPDATE payments SET is_trial = 1 WHERE kind = 'first';

CREATE INDEX payments_trials_by_card ON payments (card_fingerprint)
  WHERE is_trial = 1 AND card_fingerprint IS NOT NULL;
CREATE INDEX payments_by_card ON payments (card_fingerprint) WHERE card_fingerprint IS NOT NULL;
