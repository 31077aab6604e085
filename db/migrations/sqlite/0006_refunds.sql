-- Operator refunds (DESIGN §13).
-- A refund claims each payment before it asks the gateway, in the same transaction that
-- chose the payments, so two refunds running at once never send one payment twice. The
-- claim is cleared when the outcome is recorded; one whose request died (a crash, a
-- gateway that never answered) goes stale after a while and no longer blocks.
ALTER TABLE payments ADD COLUMN refund_claim TEXT;
ALTER TABLE payments ADD COLUMN refund_claimed_at INTEGER;

-- Refunds find the account by the provider's uid alone (e-mails may repeat in any case).
CREATE INDEX users_by_uid ON users (uid);
