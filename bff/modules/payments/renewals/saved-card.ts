import type { Database } from "../../../../db/database";
import { type PaymentRow, payments } from "../../../../db/queries/payments";
import type { CustomerReceipt } from "../../../adapters/cloudpayments/receipt";
import {
  type PaidRenewal,
  settleDecline,
  settleRenewalsPaid,
  settleSuccess,
} from "../notifications/settlement";
import type { ChargeOutcome, ProviderClient } from "../providers/provider";

/** A charge's answer names no card: the attempt keeps the card it was made with. */
const noCard = { token: null, lastFour: null };

/**
 * Charges an attempt that is already committed with the customer's saved method, through
 * the provider that holds it, with its 54-FZ receipt (`receiptOf` in ../receipts/receipt.ts
 * builds it from the payment and the e-mail).
 */
export function chargeSavedMethod(
  provider: ProviderClient,
  payment: PaymentRow,
  token: string,
  receipt: CustomerReceipt,
): Promise<ChargeOutcome> {
  return provider.chargeSaved(
    {
      invoiceId: payment.invoice_id,
      accountId: payment.account_id,
      amount: payment.amount,
      currency: payment.currency,
      description: payment.description,
      token,
    },
    receipt,
  );
}

/**
 * Applies the provider's answer to the attempt, inside the caller's transaction; true when
 * it was paid. A pending charge is left pending: its notification settles it.
 */
export async function settleCharge(
  database: Database,
  payment: PaymentRow,
  outcome: ChargeOutcome,
  now: number,
): Promise<boolean> {
  if (outcome.status === "pending") return false;
  if (outcome.status === "paid") {
    await settleSuccess(database, payment, outcome.transactionId, noCard, now);
    return true;
  }
  await settleDecline(database, payment, outcome.transactionId, outcome.reasonCode, outcome.reason, now);
  return false;
}

/**
 * Records a batch of the providers' answers (the answers are in hand, so only database work
 * runs in its transaction); returns how many were paid, whoever recorded them. The bank's
 * notification of a charge may come before its answer and settle it: one indexed read
 * finds those, and when it leaves nothing to record no transaction is opened. Paid
 * renewals are recorded together (settleRenewalsPaid), the rest one by one, in one
 * transaction. Settled after it commits, since PostgreSQL may run the body again.
 */
export async function settleChargeAnswers(
  database: Database,
  answered: readonly { payment: PaymentRow; answer: ChargeOutcome }[],
  now: number,
): Promise<number> {
  const paid = answered.filter(({ answer }) => answer.status === "paid").length;
  if (answered.length === 0) return paid;
  const statuses = await payments.statusesOf(
    database,
    answered.map(({ payment }) => payment.id),
  );
  // A Pay may still complete a declined payment (a late Pay wins); a decline only a pending one.
  // A pending charge records nothing: its notification settles it.
  const toRecord = answered.filter(({ payment, answer }) => {
    const status = statuses.get(payment.id);
    if (answer.status === "pending") return false;
    return answer.status === "paid" ? status === "pending" || status === "declined" : status === "pending";
  });
  if (toRecord.length === 0) return paid;
  await database.transaction(async () => {
    const paidRenewals: PaidRenewal[] = [];
    for (const { payment, answer } of toRecord) {
      if (answer.status === "paid" && payment.kind === "renewal")
        paidRenewals.push({ payment, transactionId: answer.transactionId, card: noCard });
      else await settleCharge(database, payment, answer, now);
    }
    await settleRenewalsPaid(database, paidRenewals, now);
  });
  return paid;
}
