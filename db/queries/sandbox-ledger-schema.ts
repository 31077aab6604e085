import type { Database as LedgerFile } from "bun:sqlite";

/**
 * The sandbox bank's own book (bff/adapters/sandbox/ledger.ts opens it): a SQLite file of
 * its own, never the product's database, so it has its schema here rather than in
 * db/migrations, made when the file is opened.
 */

/**
 * Columns added since the first ledger files were written: a ledger that survives
 * restarts (that is its point) gets them when it is opened again.
 */
const addedColumns = [
  ["orders", "data", "TEXT"],
  ["cards", "exp_date", "TEXT"],
  ["transactions", "card_first_six", "TEXT"],
  ["transactions", "card_exp_date", "TEXT"],
  ["transactions", "receipt", "TEXT"],
  // How it was paid: "card" or "sbp"; a line written before SBP (null) was a card's.
  ["transactions", "method", "TEXT"],
  // The payer's phone a QR was asked with (CloudPayments' `Phone`), where the terminal needs one.
  ["sbp_qrs", "payer_phone", "TEXT"],
] as const;

function addMissingColumns(ledger: LedgerFile): void {
  for (const [table, column, type] of addedColumns) {
    const columns = ledger.query<{ name: string }, []>(`PRAGMA table_info(${table})`).all();
    if (!columns.some((existing) => existing.name === column))
      ledger.run(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
}

/**
 * SBP (bff/adapters/sandbox/sbp-*.ts): each QR the shop asked for, with the order it pays
 * (`receipt` as JSON text, `save_card` 0/1, `expires_at` on the test clock, `state`
 * "created", "paid" or "declined" after its latest attempt, `attempts` so that the first
 * one takes the QR's own `transaction_id`), and the SBP autopay bindings a paid QR with
 * SaveCard left behind (`behaviour`: how the payer's bank answers later charges).
 */
function createSbpTables(ledger: LedgerFile): void {
  ledger.run(`CREATE TABLE IF NOT EXISTS sbp_qrs (
    id TEXT PRIMARY KEY, transaction_id INTEGER NOT NULL UNIQUE, invoice_id TEXT NOT NULL, account_id TEXT NOT NULL,
    amount INTEGER NOT NULL, currency TEXT NOT NULL, description TEXT NOT NULL, email TEXT, receipt TEXT,
    save_card INTEGER NOT NULL, expires_at INTEGER NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL,
    created_at INTEGER NOT NULL) STRICT`);
  ledger.run(`CREATE TABLE IF NOT EXISTS sbp_tokens (
    token TEXT PRIMARY KEY, account_id TEXT NOT NULL, behaviour TEXT NOT NULL, qr_id TEXT NOT NULL,
    created_at INTEGER NOT NULL) STRICT`);
}

export const sandboxLedgerFile = {
  /**
   * One process holds the file. Synchronous=NORMAL in WAL survives a killed process,
   * which is what the sandbox has to prove.
   */
  holdAlone(ledger: LedgerFile): void {
    ledger.run("PRAGMA locking_mode = EXCLUSIVE");
    ledger.run("PRAGMA journal_mode = WAL");
    ledger.run("PRAGMA synchronous = NORMAL");
  },

  /** Creates what is missing: the tables, columns added later, the indexes, the first id. */
  createSchema(ledger: LedgerFile): void {
    // `data`: the widget's data (the receipt) as JSON text.
    ledger.run(`CREATE TABLE IF NOT EXISTS orders (
    invoice_id TEXT PRIMARY KEY, amount INTEGER NOT NULL, currency TEXT NOT NULL, account_id TEXT NOT NULL,
    description TEXT NOT NULL, email TEXT, created_at INTEGER NOT NULL) STRICT`);
    ledger.run(`CREATE TABLE IF NOT EXISTS cards (
    token TEXT PRIMARY KEY, card_number TEXT NOT NULL, account_id TEXT NOT NULL, created_at INTEGER NOT NULL) STRICT`);
    // `receipt`: the CustomerReceipt the transaction was sent with, as JSON text.
    ledger.run(`CREATE TABLE IF NOT EXISTS transactions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, invoice_id TEXT NOT NULL, account_id TEXT NOT NULL,
    amount INTEGER NOT NULL, currency TEXT NOT NULL, status TEXT NOT NULL, token TEXT, card_last_four TEXT,
    reason_code INTEGER, reason TEXT, refund_of INTEGER, created_at INTEGER NOT NULL) STRICT`);
    createSbpTables(ledger);
    // After every table exists: a column may be added to any of them.
    addMissingColumns(ledger);
    // The next unused expiry of a card number paid without one (bff/adapters/sandbox/card-book.ts).
    ledger.run(`CREATE TABLE IF NOT EXISTS card_expiry_counters (
    card_number TEXT PRIMARY KEY, next_index INTEGER NOT NULL) STRICT`);
    // Each attempt to deliver a notification and the shop's answer (bff/adapters/sandbox/delivery-log.ts): `status`
    // null when none came, `transaction_id` null for a Check until its payment is booked.
    ledger.run(`CREATE TABLE IF NOT EXISTS deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, transaction_id INTEGER, invoice_id TEXT NOT NULL,
    attempt INTEGER NOT NULL, status INTEGER, code INTEGER, error TEXT, created_at INTEGER NOT NULL) STRICT`);
    ledger.run("CREATE INDEX IF NOT EXISTS deliveries_by_transaction ON deliveries (transaction_id)");
    ledger.run("CREATE INDEX IF NOT EXISTS deliveries_by_invoice ON deliveries (invoice_id)");
    ledger.run("CREATE INDEX IF NOT EXISTS cards_by_number_expiry ON cards (card_number, exp_date)");
    ledger.run("CREATE INDEX IF NOT EXISTS transactions_by_invoice ON transactions (invoice_id)");
    ledger.run("CREATE INDEX IF NOT EXISTS transactions_by_account ON transactions (account_id)");
    ledger.run(
      "CREATE INDEX IF NOT EXISTS transactions_pending ON transactions (id) WHERE status = 'Pending'",
    );
    // CloudPayments transaction ids are large integers; start the sandbox's there too.
    // sqlite_sequence has no key, so OR IGNORE never ignored: each opening added a row,
    // and an SBP QR reserves its id by moving the one row on (sbp-qrs.ts). Keep one.
    ledger.run(`DELETE FROM sqlite_sequence WHERE name = 'transactions' AND rowid <> (
    SELECT rowid FROM sqlite_sequence WHERE name = 'transactions' ORDER BY seq DESC LIMIT 1)`);
    ledger.run(`INSERT INTO sqlite_sequence (name, seq) SELECT 'transactions', 1000000
    WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'transactions')`);
  },
};
