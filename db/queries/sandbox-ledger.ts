import type { Database as LedgerFile } from "bun:sqlite";

/**
 * The sandbox bank's book (its schema: sandbox-ledger-schema.ts). The bank runs inside a
 * request synchronously, so these are bun:sqlite statements on the ledger's own file, not
 * the product's Database. Statements a book uses on every payment are prepared once, when
 * the book is made; look-ups use bun:sqlite's own cache of queries.
 */

export type LedgerTransactionRow = {
  id: number;
  kind: "payment" | "refund";
  invoice_id: string;
  account_id: string;
  amount: number;
  currency: string;
  /**
   * Pending: an SBP autopay charge answered before the payer's bank decided (sbp-charges.ts),
   * or an SBP payment's refund accepted and not yet done (sbp-refunds.ts).
   */
  status: "Completed" | "Declined" | "Pending";
  /** Null on lines written before SBP, which were all cards'. */
  method: "card" | "sbp" | null;
  token: string | null;
  card_first_six: string | null;
  card_last_four: string | null;
  card_exp_date: string | null;
  reason_code: number | null;
  reason: string | null;
  refund_of: number | null;
  /** JSON text of the CustomerReceipt the request carried. */
  receipt: string | null;
  created_at: number;
};

export type LedgerOrderRow = {
  invoice_id: string;
  amount: number;
  currency: string;
  account_id: string;
  description: string;
  email: string | null;
  /** The widget's `data` as JSON text. */
  data: string | null;
};

export type LedgerDeliveryRow = {
  kind: "check" | "pay" | "fail" | "refund";
  attempt: number;
  status: number | null;
  code: number | null;
  error: string | null;
  created_at: number;
};

export const ledgerCards = {
  prepare: (ledger: LedgerFile) => ({
    namedToken: ledger.prepare<{ token: string }, [string, string]>(
      "SELECT token FROM cards WHERE card_number = ? AND exp_date = ? ORDER BY rowid LIMIT 1",
    ),
    nextIndex: ledger.prepare<{ next_index: number }, [string]>(
      "SELECT next_index FROM card_expiry_counters WHERE card_number = ?",
    ),
    saveIndex: ledger.prepare<never, [string, number]>(
      `INSERT INTO card_expiry_counters (card_number, next_index) VALUES (?, ?)
     ON CONFLICT (card_number) DO UPDATE SET next_index = excluded.next_index`,
    ),
    insert: ledger.prepare<never, [string, string, string, string, number]>(
      "INSERT INTO cards (token, card_number, exp_date, account_id, created_at) VALUES (?, ?, ?, ?, ?)",
    ),
  }),

  byToken: (ledger: LedgerFile, token: string) =>
    ledger
      .query<{ card_number: string; exp_date: string | null }, [string]>(
        "SELECT card_number, exp_date FROM cards WHERE token = ?",
      )
      .get(token),
};

export const ledgerTransactions = {
  /** `id` null takes the next one; an SBP payment gives the id its QR reserved. */
  prepareInsert: (ledger: LedgerFile) =>
    ledger.prepare<LedgerTransactionRow, (string | number | null)[]>(
      `INSERT INTO transactions (id, kind, method, invoice_id, account_id, amount, currency, status, token,
       card_first_six, card_last_four, card_exp_date, reason_code, reason, refund_of, receipt, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ),

  /**
   * A transaction id no line has yet, taken from the counter the table's own ids come from,
   * so a later insert never takes it (an SBP QR names its transaction before it is paid).
   */
  reserveId: (ledger: LedgerFile) => {
    const reserved = ledger
      .query<{ seq: number }, []>(
        "UPDATE sqlite_sequence SET seq = seq + 1 WHERE name = 'transactions' RETURNING seq",
      )
      .get();
    if (!reserved) throw new Error("the ledger has no transaction counter");
    return reserved.seq;
  },

  payment: (ledger: LedgerFile, id: number) =>
    ledger
      .query<LedgerTransactionRow, [number]>("SELECT * FROM transactions WHERE id = ? AND kind = 'payment'")
      .get(id),

  refundedOf: (ledger: LedgerFile, paymentId: number) =>
    ledger
      .query<{ total: number }, [number]>(
        "SELECT COALESCE(SUM(amount), 0) AS total FROM transactions WHERE refund_of = ?",
      )
      .get(paymentId)?.total ?? 0,

  latestPaymentOf: (ledger: LedgerFile, invoiceId: string) =>
    ledger
      .query<LedgerTransactionRow, [string]>(
        "SELECT * FROM transactions WHERE invoice_id = ? AND kind = 'payment' ORDER BY id DESC LIMIT 1",
      )
      .get(invoiceId),

  between: (ledger: LedgerFile, from: number, to: number) =>
    ledger
      .query<LedgerTransactionRow, [number, number]>(
        "SELECT * FROM transactions WHERE created_at >= ? AND created_at < ? ORDER BY id",
      )
      .all(from, to),

  ofAccount: (ledger: LedgerFile, accountId: string) =>
    ledger
      .query<LedgerTransactionRow, [string]>("SELECT * FROM transactions WHERE account_id = ? ORDER BY id")
      .all(accountId),

  all: (ledger: LedgerFile) =>
    ledger.query<LedgerTransactionRow, []>("SELECT * FROM transactions ORDER BY id").all(),
};

export const ledgerDeliveries = {
  prepare: (ledger: LedgerFile) => ({
    insert: ledger.prepare<
      never,
      [string, number | null, string, number, number | null, number | null, string | null, number]
    >(
      `INSERT INTO deliveries (kind, transaction_id, invoice_id, attempt, status, code, error, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    linkCheck: ledger.prepare<never, [number, string]>(
      "UPDATE deliveries SET transaction_id = ? WHERE invoice_id = ? AND kind = 'check' AND transaction_id IS NULL",
    ),
    ofTransaction: ledger.prepare<LedgerDeliveryRow, [number]>(
      `SELECT kind, attempt, status, code, error, created_at FROM deliveries
     WHERE transaction_id = ? ORDER BY id`,
    ),
  }),
};

export const ledgerOrders = {
  /** Registers the order, or replaces what a registration of the same invoice said. */
  register: (ledger: LedgerFile, order: Omit<LedgerOrderRow, "data">, data: string | null, now: number) =>
    ledger
      .query(
        `INSERT INTO orders (invoice_id, amount, currency, account_id, description, email, data, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (invoice_id) DO UPDATE SET amount = excluded.amount,
           currency = excluded.currency, account_id = excluded.account_id, description = excluded.description,
           data = excluded.data`,
      )
      .run(
        order.invoice_id,
        order.amount,
        order.currency,
        order.account_id,
        order.description,
        order.email,
        data,
        now,
      ),

  byInvoice: (ledger: LedgerFile, invoiceId: string) =>
    ledger.query<LedgerOrderRow, [string]>("SELECT * FROM orders WHERE invoice_id = ?").get(invoiceId),
};
