-- Renewal passes may overlap (a manual run during the scheduler's pass; several
-- instances on one database). Each pass holds a lease while it works; every pending
-- renewal attempt names the lease it was sent under. An attempt is left over, and may
-- be settled by a look-up at the gateway, only when that lease is gone: expired, or,
-- on a database file held exclusively by one process, written by an earlier process.
CREATE TABLE renewal_leases (
  owner TEXT PRIMARY KEY,
  -- The process that took it (random per start), so a restart can tell its own from a dead one's.
  process_id TEXT NOT NULL,
  -- Real time (ms since the epoch), never the billing test clock: liveness is not a billing date.
  expires_at INTEGER NOT NULL,
  started_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- The lease a pending renewal attempt belongs to; NULL (attempts made before this
-- migration) counts as left over.
ALTER TABLE payments ADD COLUMN claimed_by TEXT;
CREATE INDEX payments_pending_renewals ON payments (claimed_by) WHERE status = 'pending' AND kind = 'renewal';
