import { toCurrencyUnits } from "../../../../core/money";
import type { Database } from "../../../../db/database";
import { type HistoryRow, paymentHistory } from "../../../../db/queries/payment-history";
import { AppError } from "../../../platform/errors";
import { receiptPath } from "../../mail/links";

/** Years of monthly renewals with their retries; older payments are the operator's to look up. */
export const historyLimit = 50;

export type PaymentPurpose = "trial" | "first" | "renewal" | "device" | "refund";
export type HistoryStatus = "paid" | "declined" | "refunded" | "refund_in_progress" | "pending";

const statusOf: Record<HistoryRow["status"], HistoryStatus> = {
  completed: "paid",
  declined: "declined",
  refunded: "refunded",
  pending: "pending",
};

const hasReceipt = (row: HistoryRow) => row.status === "completed" || row.status === "refunded";

/**
 * What a payment was for. A first payment is the trial when it was made as one; any other
 * is a first payment without a trial (a customer who already had one), even one that a
 * 100% discount brought down to the trial's price.
 */
export function purposeOf(row: HistoryRow): { purpose: PaymentPurpose; months: number | null } {
  if (row.kind === "renewal") return { purpose: "renewal", months: row.subscription_months };
  if (row.kind === "device") return { purpose: "device", months: null };
  return {
    purpose: row.is_trial === 1 ? "trial" : "first",
    months: row.tariff_months ?? row.subscription_months,
  };
}

/**
 * A refund the provider took but has not done yet (an SBP payment's) is in progress until its
 * Refund notification, for the refund and for the payment it refunds: the money is not back.
 */
const refundStatusOf = (row: HistoryRow): HistoryStatus =>
  row.refund_in_progress === 1 ? "refund_in_progress" : "refunded";

function entriesOf(row: HistoryRow) {
  const { purpose, months } = purposeOf(row);
  const payment = {
    id: `payment-${row.id}`,
    paymentId: row.id,
    date: new Date(row.created_at).toISOString(),
    amount: toCurrencyUnits(row.amount),
    currency: row.currency,
    purpose,
    months,
    trialDays: purpose === "trial" ? row.trial_days : null,
    status: row.status === "refunded" ? refundStatusOf(row) : statusOf[row.status],
    receiptUrl: hasReceipt(row) ? receiptPath(row.id) : null,
    // A refund goes back by the way the payment came (DESIGN §6), so its entry keeps the method.
    method: row.method,
  };
  if (row.refunded_amount === 0 || row.refunded_at === null) return [payment];
  // Money that went back is an entry of its own, on the day it went back.
  const refund = {
    ...payment,
    id: `refund-${row.id}`,
    date: new Date(row.refunded_at).toISOString(),
    amount: toCurrencyUnits(row.refunded_amount),
    purpose: "refund" as const,
    status: refundStatusOf(row),
  };
  return [refund, payment];
}

/** The customer's payments and refunds, newest first, amounts in currency units. */
export async function paymentHistoryOf(database: Database, userId: number, limit = historyLimit) {
  const rows = await paymentHistory.newestOf(database, userId, limit + 1);
  const entries = rows.slice(0, limit).flatMap(entriesOf);
  entries.sort((a, b) => b.date.localeCompare(a.date));
  return { success: true as const, payments: entries, hasMore: rows.length > limit };
}

/** One payment with a receipt, of this customer only; anything else is simply not found. */
export async function ownPaidPayment(
  database: Database,
  userId: number,
  paymentId: number,
): Promise<HistoryRow> {
  const row = await paymentHistory.ownPayment(database, userId, paymentId);
  if (!row || !hasReceipt(row)) throw new AppError("receipt_not_found");
  return row;
}
