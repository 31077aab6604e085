-- YooKassa (DESIGN §6): every POST carries an Idempotence-Key that YooKassa honours for
-- 24 hours. Each request is written here, with its key and its exact body, before it is
-- sent: a timeout, a 5xx or a crash in between sends the same body under the same key
-- again, which YooKassa answers with the one payment (or refund) it made, if it made one.
-- object_id is the provider's id of what the request made, once an answer said it.
-- Rows past the provider's 24 hours help nobody and hold receipts' e-mails: the retention
-- pass deletes them.
CREATE TABLE provider_requests (
  idempotence_key TEXT PRIMARY KEY,
  provider TEXT NOT NULL CHECK (provider IN ('cloudpayments', 'yookassa')),
  operation TEXT NOT NULL CHECK (operation IN ('payment', 'refund')),
  invoice_id TEXT NOT NULL,
  body TEXT NOT NULL,
  object_id TEXT,
  created_at INTEGER NOT NULL,
  answered_at INTEGER
) STRICT;
CREATE INDEX provider_requests_by_invoice ON provider_requests (invoice_id, created_at);
CREATE INDEX provider_requests_by_time ON provider_requests (created_at);
CREATE INDEX provider_requests_by_object ON provider_requests (object_id) WHERE object_id IS NOT NULL;
-- The provider's own id of the payment a row is paid by, once known: YooKassa names a
-- payment when it is made (still pending), so a look-up needs no invoice search, which
-- its API does not have.
ALTER TABLE payments ADD COLUMN provider_payment_id TEXT;
