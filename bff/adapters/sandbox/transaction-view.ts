import { toCurrencyUnits } from "../../../core/money";
import type { LedgerTransactionRow } from "../../../db/queries/sandbox-ledger";
import { formatAmount } from "../cloudpayments/notification";
import type { CustomerReceipt } from "../cloudpayments/receipt";

export type TransactionRow = LedgerTransactionRow;

const cardOf = (row: TransactionRow) => ({
  CardFirstSix: row.card_first_six ?? undefined,
  CardLastFour: row.card_last_four ?? undefined,
  CardExpDate: row.card_exp_date ?? undefined,
});

/** The CloudPayments model of a transaction, as the API answers describe it. */
export function model(row: TransactionRow) {
  return {
    TransactionId: row.id,
    Amount: toCurrencyUnits(row.amount),
    Currency: row.currency,
    InvoiceId: row.invoice_id,
    AccountId: row.account_id,
    Status: row.status,
    StatusCode: row.status === "Completed" ? 3 : 5,
    ReasonCode: row.reason_code ?? 0,
    Reason: row.reason ?? "Approved",
    ...cardOf(row),
    Token: row.token ?? undefined,
    CreatedDateIso: new Date(row.created_at).toISOString(),
    TestMode: true,
  };
}

/** The fields of a Pay, Fail or Refund notification about a transaction. */
export const notificationFields = (row: TransactionRow, email: string | null | undefined) => ({
  TransactionId: row.id,
  Amount: formatAmount(row.amount),
  Currency: row.currency,
  DateTime: new Date(row.created_at).toISOString(),
  ...cardOf(row),
  Status: row.status,
  OperationType: row.kind === "refund" ? "Refund" : "Payment",
  InvoiceId: row.invoice_id,
  AccountId: row.account_id,
  Email: email ?? undefined,
  Token: row.token ?? undefined,
  Reason: row.reason ?? "Approved",
  ReasonCode: row.reason_code ?? 0,
  TestMode: 1,
});

/** A line of GET /api/dev/sandbox/ledger (DESIGN §11), times in the test clock. */
export const ledgerEntry = (row: TransactionRow) => ({
  transactionId: String(row.id),
  invoiceId: row.invoice_id,
  accountId: row.account_id,
  amount: toCurrencyUnits(row.amount),
  currency: row.currency,
  status: row.status,
  kind: row.kind,
  dateTime: new Date(row.created_at).toISOString(),
  receipt: row.receipt === null ? null : (JSON.parse(row.receipt) as CustomerReceipt),
});
