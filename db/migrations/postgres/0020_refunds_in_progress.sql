-- See the SQLite migration 0031: a refund accepted by the provider and not yet done.
ALTER TABLE payments ADD COLUMN refund_in_progress BIGINT NOT NULL DEFAULT 0
  CHECK (refund_in_progress IN (0, 1));
