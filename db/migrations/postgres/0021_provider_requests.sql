-- See the SQLite migration 0030: each provider request with its idempotence key and body,
-- kept to be sent again unchanged, and the provider's id of a payment once known.
CREATE TABLE provider_requests (
  idempotence_key TEXT PRIMARY KEY,
  provider TEXT NOT NULL CHECK (provider IN ('cloudpayments', 'yookassa')),
  operation TEXT NOT NULL CHECK (operation IN ('payment', 'refund')),
  invoice_id TEXT NOT NULL,
  body TEXT NOT NULL,
  object_id TEXT,
  created_at BIGINT NOT NULL,
  answered_at BIGINT
);
CREATE INDEX provider_requests_by_invoice ON provider_requests (invoice_id, created_at);
CREATE INDEX provider_requests_by_time ON provider_requests (created_at);
CREATE INDEX provider_requests_by_object ON provider_requests (object_id) WHERE object_id IS NOT NULL;
ALTER TABLE payments ADD COLUMN provider_payment_id TEXT;
