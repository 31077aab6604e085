import type { Database as LedgerFile } from "bun:sqlite";
import type { LedgerTransactionRow } from "./sandbox-ledger";

/**
 * The sandbox bank's SBP book (its tables: sandbox-ledger-schema.ts): the QRs the shop
 * asked for, the autopay bindings paid QRs left, the settling of charges that were
 * answered Pending, and the completing of refunds accepted as Pending.
 */

export type SbpQrState = "created" | "paid" | "declined";

export type LedgerSbpQrRow = {
  id: string;
  transaction_id: number;
  invoice_id: string;
  account_id: string;
  amount: number;
  currency: string;
  description: string;
  email: string | null;
  /** JSON text of the CustomerReceipt the QR was asked with. */
  receipt: string | null;
  save_card: 0 | 1;
  /** The payer's phone the shop sent with the QR (`Phone`), as sent; null without one. */
  payer_phone: string | null;
  expires_at: number;
  state: SbpQrState;
  attempts: number;
  created_at: number;
};

/** How the payer's bank answers later charges of an autopay binding (the bank page's choice). */
export type SbpAccountBehaviour = "ok" | "declinesLater" | "revoked" | "silent";

export type LedgerSbpTokenRow = {
  token: string;
  account_id: string;
  behaviour: SbpAccountBehaviour;
  qr_id: string;
  created_at: number;
};

export const ledgerSbpQrs = {
  insert: (ledger: LedgerFile, qr: Omit<LedgerSbpQrRow, "state" | "attempts">) =>
    ledger
      .query(
        `INSERT INTO sbp_qrs (id, transaction_id, invoice_id, account_id, amount, currency, description, email,
           receipt, save_card, payer_phone, expires_at, state, attempts, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'created', 0, ?)`,
      )
      .run(
        qr.id,
        qr.transaction_id,
        qr.invoice_id,
        qr.account_id,
        qr.amount,
        qr.currency,
        qr.description,
        qr.email,
        qr.receipt,
        qr.save_card,
        qr.payer_phone,
        qr.expires_at,
        qr.created_at,
      ),

  byId: (ledger: LedgerFile, id: string) =>
    ledger.query<LedgerSbpQrRow, [string]>("SELECT * FROM sbp_qrs WHERE id = ?").get(id),

  /**
   * Counts one more attempt to pay the QR and answers how many there were with it, in one
   * statement: of two payments at once, exactly one is the first.
   */
  countAttempt: (ledger: LedgerFile, id: string) =>
    ledger
      .query<{ attempts: number }, [string]>(
        "UPDATE sbp_qrs SET attempts = attempts + 1 WHERE id = ? RETURNING attempts",
      )
      .get(id)?.attempts ?? 0,

  setState: (ledger: LedgerFile, id: string, state: SbpQrState) =>
    ledger.query("UPDATE sbp_qrs SET state = ? WHERE id = ?").run(state, id),
};

export const ledgerSbpTokens = {
  insert: (ledger: LedgerFile, row: LedgerSbpTokenRow) =>
    ledger
      .query(
        "INSERT INTO sbp_tokens (token, account_id, behaviour, qr_id, created_at) VALUES (?, ?, ?, ?, ?)",
      )
      .run(row.token, row.account_id, row.behaviour, row.qr_id, row.created_at),

  byToken: (ledger: LedgerFile, token: string) =>
    ledger.query<LedgerSbpTokenRow, [string]>("SELECT * FROM sbp_tokens WHERE token = ?").get(token),
};

export const ledgerSbpCharges = {
  /**
   * Gives a Pending charge its outcome, once: a second settling of the same charge finds it
   * no longer Pending and changes nothing (undefined).
   */
  settle: (
    ledger: LedgerFile,
    id: number,
    outcome: { status: "Completed" | "Declined"; reasonCode: number | null; reason: string | null },
  ) =>
    ledger
      .query<LedgerTransactionRow, [string, number | null, string | null, number]>(
        `UPDATE transactions SET status = ?, reason_code = ?, reason = ?
         WHERE id = ? AND status = 'Pending' RETURNING *`,
      )
      .get(outcome.status, outcome.reasonCode, outcome.reason, id) ?? undefined,

  /** Charges left Pending when the bank stopped: settled when it opens again. */
  pending: (ledger: LedgerFile) =>
    ledger
      .query<{ id: number; token: string | null }, []>(
        "SELECT id, token FROM transactions WHERE status = 'Pending' AND kind = 'payment' ORDER BY id",
      )
      .all(),
};

export const ledgerSbpRefunds = {
  /** Completes a refund accepted as Pending, once: a second completion changes nothing (undefined). */
  complete: (ledger: LedgerFile, id: number) =>
    ledger
      .query<LedgerTransactionRow, [number]>(
        "UPDATE transactions SET status = 'Completed' WHERE id = ? AND kind = 'refund' AND status = 'Pending' RETURNING *",
      )
      .get(id) ?? undefined,

  /** Refunds left Pending when the bank stopped: done when it opens again. */
  pending: (ledger: LedgerFile) =>
    ledger
      .query<{ id: number; refund_of: number }, []>(
        "SELECT id, refund_of FROM transactions WHERE status = 'Pending' AND kind = 'refund' ORDER BY id",
      )
      .all(),
};
