-- A refund the provider accepted but has not done yet (DESIGN §6): an SBP payment's refund is
-- a transfer the payer's bank completes after the gateway's answer, done only when its Refund
-- notification comes. Until then the payment is refunded in our books (access ends at once,
-- as for any refund) and the cabinet and the panel say the refund is in progress.
ALTER TABLE payments ADD COLUMN refund_in_progress INTEGER NOT NULL DEFAULT 0
  CHECK (refund_in_progress IN (0, 1));
