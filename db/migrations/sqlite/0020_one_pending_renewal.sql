-- A subscription has at most one renewal attempt waiting for the bank's answer. Claims keep
-- to it by their row locks and a fresh look at the attempts under them (renewal-claim.ts);
-- should two ever race past that, the second attempt fails to insert and is never sent.
CREATE UNIQUE INDEX payments_one_pending_renewal ON payments (subscription_id)
  WHERE status = 'pending' AND kind = 'renewal';
