import { toCurrencyUnits } from "../../../core/money";
import type { Database } from "../../../db/database";
import type { PaymentRow } from "../../../db/queries/payments";
import type { GatewayClient } from "../../adapters/cloudpayments/client";
import type { CustomerReceipt } from "../../adapters/cloudpayments/receipt";
import { settleDecline, settleSuccess } from "./settlement";

export type ChargeAnswer = Awaited<ReturnType<GatewayClient["chargeToken"]>>;

/**
 * Charges an attempt that is already committed, with the customer's saved card and its
 * 54-FZ receipt (`receiptOf` in ./receipt builds it from the payment and the e-mail).
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
