-- The trial is once per card at Pay as well as at Check (DESIGN §13). The one payment that
-- got a card's trial claims the card here, in the transaction that settles it; the key
-- makes a second claim a no-op, so two Pays whose Checks both passed make one trial, on
-- one instance or several.
CREATE TABLE trial_cards (
  -- first six + last four + expiry, as payments.card_fingerprint.
  card_fingerprint TEXT PRIMARY KEY,
  payment_id BIGINT NOT NULL REFERENCES payments (id),
  claimed_at BIGINT NOT NULL
);

-- Every card that already paid a trial keeps it.
INSERT INTO trial_cards (card_fingerprint, payment_id, claimed_at)
  SELECT card_fingerprint, MIN(id), MIN(updated_at) FROM payments
  WHERE is_trial = 1 AND status IN ('completed', 'refunded') AND card_fingerprint IS NOT NULL
  GROUP BY card_fingerprint;

-- Why a 1-unit trial payment was not given its trial: its card had one ('card', found at
-- Check or at Pay), its customer had one ('customer', at Pay), or it was an anonymous
-- purchase bound to an account that had one ('account'). A paid one buys nothing and is
-- refunded; it never counts as the customer's trial.
ALTER TABLE payments ADD COLUMN trial_refusal TEXT CHECK (trial_refusal IN ('card', 'customer', 'account'));
-- The e-mail the payer gave the gateway, for an anonymous purchase: how support finds one
-- that was never attached to an account.
ALTER TABLE payments ADD COLUMN payer_email TEXT;

-- Paid trials that were not given and still wait for their refund.
CREATE INDEX payments_refused_trials ON payments (id)
  WHERE trial_refusal IS NOT NULL AND status = 'completed' AND is_trial = 1;
-- Paid anonymous purchases not attached to any account yet (the panel lists them).
CREATE INDEX payments_unbound_prepaid ON payments (created_at)
  WHERE prepaid_token IS NOT NULL AND user_id IS NULL AND status = 'completed';
