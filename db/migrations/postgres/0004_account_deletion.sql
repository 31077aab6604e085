-- A customer's own deletion of their account (DESIGN §16): when it happened. The row stays,
-- anonymized, because payments (kept for accounting) point at it.
ALTER TABLE users ADD COLUMN deleted_at BIGINT;
