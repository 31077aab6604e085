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

/** How a transaction was paid; a line from before SBP (null) was a card's. */
export const methodOf = (row: TransactionRow): "card" | "sbp" => row.method ?? "card";

/**
 * `PaymentMethod` as the gateway names SBP in its models and notifications; a card
 * payment goes without one, as before SBP, so card answers stay what they were.
 */
const paymentMethodOf = (row: TransactionRow) => (methodOf(row) === "sbp" ? "Sbp" : undefined);

/** CloudPayments' status codes: 3 Completed, 5 Declined; a Pending SBP charge still awaits its bank (1). */
const statusCodes = { Completed: 3, Declined: 5, Pending: 1 } as const;

/** The CloudPayments model of a transaction, as the API answers describe it. */
export function model(row: TransactionRow) {
  return {
    TransactionId: row.id,
    Amount: toCurrencyUnits(row.amount),
    Currency: row.currency,
    InvoiceId: row.invoice_id,
    AccountId: row.account_id,
    Status: row.status,
    StatusCode: statusCodes[row.status],
    ReasonCode: row.reason_code ?? 0,
    Reason: row.reason ?? (row.status === "Pending" ? "Pending" : "Approved"),
    PaymentMethod: paymentMethodOf(row),
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
  PaymentMethod: paymentMethodOf(row),
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
  method: methodOf(row),
  dateTime: new Date(row.created_at).toISOString(),
  receipt: row.receipt === null ? null : (JSON.parse(row.receipt) as CustomerReceipt),
});
