import { toCurrencyUnits } from "../../../../core/money";
import type { Database } from "../../../../db/database";
import { type PaymentRow, payments } from "../../../../db/queries/payments";
import type { GatewayClient } from "../../../adapters/cloudpayments/client";
import type { CustomerReceipt } from "../../../adapters/cloudpayments/receipt";
import {
  type PaidRenewal,
  settleDecline,
  settleRenewalsPaid,
  settleSuccess,
} from "../notifications/settlement";

/** A charge's answer names no card: the attempt keeps the card it was made with. */
const noCard = { token: null, lastFour: null };

export type ChargeAnswer = Awaited<ReturnType<GatewayClient["chargeToken"]>>;

/**
 * Charges an attempt that is already committed, with the customer's saved card and its
 * 54-FZ receipt (`receiptOf` in ../receipts/receipt.ts builds it from the payment and the e-mail).
 */
export function chargeSavedCard(
  gateway: GatewayClient,
  payment: PaymentRow,
  token: string,
  receipt: CustomerReceipt,
): Promise<ChargeAnswer> {
  return gateway.chargeToken(
    {
      Amount: toCurrencyUnits(payment.amount),
      Currency: payment.currency,
      AccountId: payment.account_id,
      Token: token,
      InvoiceId: payment.invoice_id,
      Description: payment.description,
    },
    receipt,
  );
}

/** Applies the gateway's answer to the attempt, inside the caller's transaction; true when it was paid. */
export async function settleCharge(
  database: Database,
  payment: PaymentRow,
  answer: ChargeAnswer,
  now: number,
): Promise<boolean> {
  const model = answer.Model;
  if (model?.Status === "Completed") {
    await settleSuccess(database, payment, String(model.TransactionId), { token: null, lastFour: null }, now);
    return true;
  }
  await settleDecline(
    database,
    payment,
    model ? String(model.TransactionId) : null,
    model?.ReasonCode ?? null,
    model?.Reason ?? answer.Message,
    now,
  );
  return false;
}

/**
 * Records a batch of the gateway's answers (the answers are in hand, so only database work
 * runs in its transaction); returns how many were paid, whoever recorded them. The bank's
 * notification of a charge may come before its answer and settle it: one indexed read
 * finds those, and when it leaves nothing to record no transaction is opened. Paid
 * renewals are recorded together (settleRenewalsPaid), the rest one by one, in one
 * transaction. Settled after it commits, since PostgreSQL may run the body again.
 */
export async function settleChargeAnswers(
  database: Database,
  answered: readonly { payment: PaymentRow; answer: ChargeAnswer }[],
  now: number,
): Promise<number> {
  const paid = answered.filter(({ answer }) => answer.Model?.Status === "Completed").length;
  if (answered.length === 0) return paid;
  const statuses = await payments.statusesOf(
    database,
    answered.map(({ payment }) => payment.id),
  );
  // A Pay may still complete a declined payment (a late Pay wins); a decline only a pending one.
  const toRecord = answered.filter(({ payment, answer }) => {
    const status = statuses.get(payment.id);
    return answer.Model?.Status === "Completed"
      ? status === "pending" || status === "declined"
      : status === "pending";
  });
  if (toRecord.length === 0) return paid;
  await database.transaction(async () => {
    const paidRenewals: PaidRenewal[] = [];
    for (const { payment, answer } of toRecord) {
      if (answer.Model?.Status === "Completed" && payment.kind === "renewal")
        paidRenewals.push({ payment, transactionId: String(answer.Model.TransactionId), card: noCard });
      else await settleCharge(database, payment, answer, now);
    }
    await settleRenewalsPaid(database, paidRenewals, now);
  });
  return paid;
}
