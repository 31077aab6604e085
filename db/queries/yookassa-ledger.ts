import type { Database as LedgerFile } from "bun:sqlite";

/**
 * The YooKassa sandbox's book (its schema: yookassa-ledger-schema.ts): bun:sqlite
 * statements on its own file, run synchronously inside a request, as the CloudPayments
 * sandbox's are (sandbox-ledger.ts).
 */

export type YooKassaLedgerPaymentRow = {
  id: string;
  status: "pending" | "waiting_for_capture" | "succeeded" | "canceled";
  amount: number;
  currency: string;
  description: string;
  /** JSON text. */
  metadata: string | null;
  /** JSON text of YooKassa's receipt object as sent. */
  receipt: string | null;
  method_type: "bank_card" | "sbp" | null;
  payment_method_id: string | null;
  save_requested: 0 | 1;
  confirmation_type: "redirect" | "qr" | null;
  return_url: string | null;
  qr_id: string | null;
  confirm_by: number | null;
  confirm_attempts: number;
  cancellation_party: string | null;
  cancellation_reason: string | null;
  refunded_amount: number;
  captured_at: number | null;
  created_at: number;
};

export type YooKassaLedgerMethodRow = {
  id: string;
  type: "bank_card" | "sbp";
  card_number: string | null;
  expiry_month: string | null;
  expiry_year: string | null;
  saved: 0 | 1;
  behaviour: "ok" | "declinesLater" | "revoked" | "silent" | null;
  created_at: number;
};

export type YooKassaLedgerRefundRow = {
  id: string;
  payment_id: string;
  status: "succeeded";
  amount: number;
  currency: string;
  description: string | null;
  receipt: string | null;
  created_at: number;
};

export type YooKassaIdempotenceRow = {
  key: string;
  path: string;
  body_digest: string;
  object_id: string;
  created_at: number;
};

export type YooKassaDeliveryRow = {
  event: string;
  object_id: string;
  attempt: number;
  status: number | null;
  error: string | null;
  created_at: number;
};

export const yooKassaLedgerPayments = {
  insert: (ledger: LedgerFile, row: Omit<YooKassaLedgerPaymentRow, "confirm_attempts" | "refunded_amount">) =>
    ledger
      .query(
        `INSERT INTO payments (id, status, amount, currency, description, metadata, receipt, method_type,
           payment_method_id, save_requested, confirmation_type, return_url, qr_id, confirm_by,
           cancellation_party, cancellation_reason, captured_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.id,
        row.status,
        row.amount,
        row.currency,
        row.description,
        row.metadata,
        row.receipt,
        row.method_type,
        row.payment_method_id,
        row.save_requested,
        row.confirmation_type,
        row.return_url,
        row.qr_id,
        row.confirm_by,
        row.cancellation_party,
        row.cancellation_reason,
        row.captured_at,
        row.created_at,
      ),

  byId: (ledger: LedgerFile, id: string) =>
    ledger.query<YooKassaLedgerPaymentRow, [string]>("SELECT * FROM payments WHERE id = ?").get(id) ??
    undefined,

  /**
   * A page of the payments the list's filters keep (made in `created`, and when given: made
   * with `method`, in `status`, captured in `captured`), newest first (YooKassa's order),
   * after the one `after` names (the previous page's last): the list API's cursor.
   */
  listed: (
    ledger: LedgerFile,
    filters: {
      created: readonly [number, number];
      captured: readonly [number, number] | null;
      status: string | null;
      method: string | null;
    },
    after: { createdAt: number; id: string } | undefined,
    limit: number,
  ) => {
    const [capturedFrom, capturedTo] = filters.captured ?? [null, null];
    const newest = after?.createdAt ?? Number.MAX_SAFE_INTEGER;
    return ledger
      .query<{ id: string; created_at: number }, (string | number | null)[]>(
        `SELECT id, created_at FROM payments WHERE created_at >= ? AND created_at <= ?
           AND (? IS NULL OR (captured_at >= ? AND captured_at <= ?))
           AND (? IS NULL OR status = ?) AND (? IS NULL OR method_type = ?)
           AND (created_at < ? OR (created_at = ? AND id < ?))
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .all(
        filters.created[0],
        filters.created[1],
        capturedFrom,
        capturedFrom,
        capturedTo,
        filters.status,
        filters.status,
        filters.method,
        filters.method,
        newest,
        newest,
        after?.id ?? "",
        limit,
      );
  },

  byQr: (ledger: LedgerFile, qrId: string) =>
    ledger.query<YooKassaLedgerPaymentRow, [string]>("SELECT * FROM payments WHERE qr_id = ?").get(qrId) ??
    undefined,

  /** Counts an attempt to confirm a pending payment (the bank page shows how many were made). */
  countAttempt: (ledger: LedgerFile, id: string) =>
    ledger.query("UPDATE payments SET confirm_attempts = confirm_attempts + 1 WHERE id = ?").run(id),

  /** A pending payment's outcome, once: a payment already decided is left as it is. */
  succeed: (ledger: LedgerFile, id: string, methodId: string, now: number) =>
    ledger
      .query(
        `UPDATE payments SET status = 'succeeded', payment_method_id = ?, captured_at = ?
         WHERE id = ? AND status = 'pending'`,
      )
      .run(methodId, now, id).changes === 1,

  cancel: (ledger: LedgerFile, id: string, party: string, reason: string, methodId: string | null) =>
    ledger
      .query(
        `UPDATE payments SET status = 'canceled', cancellation_party = ?, cancellation_reason = ?,
           payment_method_id = COALESCE(?, payment_method_id) WHERE id = ? AND status = 'pending'`,
      )
      .run(party, reason, methodId, id).changes === 1,

  /** Adds a refund to a succeeded payment, never past what it took; false when it would be. */
  addRefund: (ledger: LedgerFile, id: string, amount: number) =>
    ledger
      .query(
        `UPDATE payments SET refunded_amount = refunded_amount + ?
         WHERE id = ? AND status = 'succeeded' AND refunded_amount + ? <= amount`,
      )
      .run(amount, id, amount).changes === 1,

  pendingSavedCharges: (ledger: LedgerFile) =>
    ledger
      .query<YooKassaLedgerPaymentRow, []>(
        "SELECT * FROM payments WHERE status = 'pending' AND confirmation_type IS NULL ORDER BY created_at",
      )
      .all(),

  all: (ledger: LedgerFile) =>
    ledger.query<YooKassaLedgerPaymentRow, []>("SELECT * FROM payments ORDER BY created_at, id").all(),
};

export const yooKassaLedgerMethods = {
  insert: (ledger: LedgerFile, row: YooKassaLedgerMethodRow) =>
    ledger
      .query(
        `INSERT INTO payment_methods (id, type, card_number, expiry_month, expiry_year, saved, behaviour, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.id,
        row.type,
        row.card_number,
        row.expiry_month,
        row.expiry_year,
        row.saved,
        row.behaviour,
        row.created_at,
      ),

  byId: (ledger: LedgerFile, id: string) =>
    ledger.query<YooKassaLedgerMethodRow, [string]>("SELECT * FROM payment_methods WHERE id = ?").get(id) ??
    undefined,

  /** Marks a method saved once the payment that asked for it succeeded. */
  save: (ledger: LedgerFile, id: string) =>
    ledger.query("UPDATE payment_methods SET saved = 1 WHERE id = ?").run(id),

  /** Whether any card of this number already has this expiry. */
  hasCard: (ledger: LedgerFile, number: string, month: string, year: string) =>
    ledger
      .query<{ found: number }, [string, string, string]>(
        "SELECT 1 AS found FROM payment_methods WHERE card_number = ? AND expiry_month = ? AND expiry_year = ? LIMIT 1",
      )
      .get(number, month, year) !== null,

  cardsOf: (ledger: LedgerFile, number: string) =>
    ledger
      .query<{ count: number }, [string]>(
        "SELECT COUNT(*) AS count FROM payment_methods WHERE card_number = ?",
      )
      .get(number)?.count ?? 0,
};

export const yooKassaLedgerRefunds = {
  insert: (ledger: LedgerFile, row: YooKassaLedgerRefundRow) =>
    ledger
      .query(
        `INSERT INTO refunds (id, payment_id, status, amount, currency, description, receipt, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.id,
        row.payment_id,
        row.status,
        row.amount,
        row.currency,
        row.description,
        row.receipt,
        row.created_at,
      ),

  byId: (ledger: LedgerFile, id: string) =>
    ledger.query<YooKassaLedgerRefundRow, [string]>("SELECT * FROM refunds WHERE id = ?").get(id) ??
    undefined,

  ofPayment: (ledger: LedgerFile, paymentId: string) =>
    ledger
      .query<YooKassaLedgerRefundRow, [string]>(
        "SELECT * FROM refunds WHERE payment_id = ? ORDER BY created_at, id",
      )
      .all(paymentId),
};

export const yooKassaLedgerIdempotence = {
  /** The key's first request, if it is still honoured (sent at `since` or later). */
  find: (ledger: LedgerFile, key: string, since: number) =>
    ledger
      .query<YooKassaIdempotenceRow, [string, number]>(
        "SELECT * FROM idempotence WHERE key = ? AND created_at >= ?",
      )
      .get(key, since) ?? undefined,

  /** Keeps a key's first request; a key past its 24 hours is taken over by the new one. */
  keep: (ledger: LedgerFile, row: YooKassaIdempotenceRow) =>
    ledger
      .query(
        `INSERT INTO idempotence (key, path, body_digest, object_id, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET path = excluded.path, body_digest = excluded.body_digest,
           object_id = excluded.object_id, created_at = excluded.created_at`,
      )
      .run(row.key, row.path, row.body_digest, row.object_id, row.created_at),
};

export const yooKassaLedgerDeliveries = {
  insert: (ledger: LedgerFile, row: YooKassaDeliveryRow) =>
    ledger
      .query(
        "INSERT INTO deliveries (event, object_id, attempt, status, error, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(row.event, row.object_id, row.attempt, row.status, row.error, row.created_at),

  of: (ledger: LedgerFile, objectId: string) =>
    ledger
      .query<YooKassaDeliveryRow, [string]>("SELECT * FROM deliveries WHERE object_id = ? ORDER BY id")
      .all(objectId),
};
