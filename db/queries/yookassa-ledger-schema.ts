import type { Database as LedgerFile } from "bun:sqlite";

/**
 * The YooKassa sandbox's own book (bff/adapters/yookassa-sandbox/ledger.ts opens it): a
 * SQLite file of its own, beside the CloudPayments sandbox's and never the product's
 * database, so what this stand-in bank did survives a crash of our server and can be
 * checked against our records. Its schema lives here, made when the file is opened.
 *
 * - payments: each payment as YooKassa keeps it. Amounts in minor units; `metadata` and
 *   `receipt` JSON text as sent; `method_type` what the payer is to pay by (bank_card,
 *   sbp, or null: any), `payment_method_id` what paid (or the saved method charged);
 *   `confirmation_type` redirect or qr (null for a charge of a saved method); `qr_id` the
 *   bank page's id of an SBP payment's QR; `confirm_by` when its confirmation ends.
 * - payment_methods: cards and SBP accounts that paid; `saved` 1 when the shop asked
 *   save_payment_method and the payment succeeded; `behaviour` how an SBP account answers
 *   later charges (ok, declinesLater, revoked, silent: the bank page's choice).
 * - refunds, with the receipt they carried.
 * - idempotence: each POST's key, what it was sent to, a digest of its body and what it
 *   made; a key is honoured 24 hours (on the app's clock, so the demo's test clock moves it).
 * - deliveries: each notification send and the shop's answer (null: none came).
 */
export const yooKassaLedgerFile = {
  /** One process holds the file; WAL with synchronous=NORMAL survives a killed process. */
  holdAlone(ledger: LedgerFile): void {
    ledger.run("PRAGMA locking_mode = EXCLUSIVE");
    ledger.run("PRAGMA journal_mode = WAL");
    ledger.run("PRAGMA synchronous = NORMAL");
  },

  createSchema(ledger: LedgerFile): void {
    ledger.run(`CREATE TABLE IF NOT EXISTS payments (
    id TEXT PRIMARY KEY, status TEXT NOT NULL, amount INTEGER NOT NULL, currency TEXT NOT NULL,
    description TEXT NOT NULL, metadata TEXT, receipt TEXT, method_type TEXT, payment_method_id TEXT,
    save_requested INTEGER NOT NULL, confirmation_type TEXT, return_url TEXT, qr_id TEXT UNIQUE,
    confirm_by INTEGER, confirm_attempts INTEGER NOT NULL DEFAULT 0, cancellation_party TEXT,
    cancellation_reason TEXT, refunded_amount INTEGER NOT NULL DEFAULT 0, captured_at INTEGER,
    created_at INTEGER NOT NULL) STRICT`);
    ledger.run(`CREATE TABLE IF NOT EXISTS payment_methods (
    id TEXT PRIMARY KEY, type TEXT NOT NULL, card_number TEXT, expiry_month TEXT, expiry_year TEXT,
    saved INTEGER NOT NULL, behaviour TEXT, created_at INTEGER NOT NULL) STRICT`);
    ledger.run(`CREATE TABLE IF NOT EXISTS refunds (
    id TEXT PRIMARY KEY, payment_id TEXT NOT NULL REFERENCES payments (id), status TEXT NOT NULL,
    amount INTEGER NOT NULL, currency TEXT NOT NULL, description TEXT, receipt TEXT,
    created_at INTEGER NOT NULL) STRICT`);
    ledger.run(`CREATE TABLE IF NOT EXISTS idempotence (
    key TEXT PRIMARY KEY, path TEXT NOT NULL, body_digest TEXT NOT NULL, object_id TEXT NOT NULL,
    created_at INTEGER NOT NULL) STRICT`);
    ledger.run(`CREATE TABLE IF NOT EXISTS deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL, object_id TEXT NOT NULL,
    attempt INTEGER NOT NULL, status INTEGER, error TEXT, created_at INTEGER NOT NULL) STRICT`);
    ledger.run("CREATE INDEX IF NOT EXISTS payments_pending ON payments (id) WHERE status = 'pending'");
    ledger.run(
      "CREATE INDEX IF NOT EXISTS payment_methods_by_card ON payment_methods (card_number, expiry_month, expiry_year)",
    );
    ledger.run("CREATE INDEX IF NOT EXISTS refunds_by_payment ON refunds (payment_id)");
    ledger.run("CREATE INDEX IF NOT EXISTS deliveries_by_object ON deliveries (object_id)");
  },
};
