import { duplicatePayments } from "../../../../db/queries/duplicate-payments";
import { type PaymentRow, payments } from "../../../../db/queries/payments";
import { type Notification, parseAmount } from "../../../adapters/cloudpayments/notification";
import { metadataKeys, type YooKassaPayment, type YooKassaRefund } from "../../../adapters/yookassa/types";
import type { AppContext } from "../../../context";
import { logger } from "../../../platform/logger";
import { firstInvoicePrefix } from "../orders/orders";
import { reasonCodeOf } from "../providers/yookassa-outcome";
import { refundDuplicatePaymentsNow } from "../refunds/duplicate-refunds";
import { refundRefusedTrialsNow } from "../refunds/refused-trial-refunds";
import { applyNotification } from "./webhooks";

type Services = Pick<AppContext, "database" | "clock" | "config" | "payments">;

/**
 * A payment YooKassa confirmed, in the fields the settlement reads (webhooks.ts: it speaks
 * the CloudPayments notification's names): the payment's id is the transaction, our
 * invoice and account ride in its metadata, the card's expiry is written MM/YY as
 * CloudPayments writes it, so a card's trial fingerprint is one whichever provider took it.
 */
function fieldsOf(payment: YooKassaPayment, invoiceId: string): Notification {
  const method = payment.payment_method;
  const card = method?.card;
  const reason = payment.cancellation_details?.reason;
  const reasonCode = reasonCodeOf(reason);
  return {
    TransactionId: payment.id,
    Amount: payment.amount.value,
    Currency: payment.amount.currency,
    InvoiceId: invoiceId,
    AccountId: payment.metadata?.[metadataKeys.accountId] ?? "",
    Status: payment.status,
    // Only a saved method is a token later charges may name.
    Token: method?.saved ? method.id : undefined,
    CardFirstSix: card?.first6,
    CardLastFour: card?.last4,
    CardExpDate: card ? `${card.expiry_month.padStart(2, "0")}/${card.expiry_year.slice(-2)}` : undefined,
    ReasonCode: reasonCode === null ? undefined : String(reasonCode),
    Reason: reason,
    PaymentMethod: method?.type === "sbp" ? "Sbp" : undefined,
  };
}

const isSettledAsPaid = (row: PaymentRow) => row.status === "completed" || row.status === "refunded";

/**
 * Money YooKassa took that buys nothing: the order was paid by another payment already, or
 * this payment is not the order as it now stands (a payment opened before the customer
 * changed the plan, then paid). It is kept apart and sent back at once, through YooKassa.
 */
function isMoneyForNothing(row: PaymentRow, payment: YooKassaPayment, fields: Notification): boolean {
  if (isSettledAsPaid(row)) return row.transaction_id !== payment.id;
  return (
    parseAmount(fields.Amount) !== row.amount ||
    fields.Currency !== row.currency ||
    fields.AccountId !== row.account_id
  );
}

/**
 * Applies a payment YooKassa's own API just confirmed (DESIGN §6): settled through the
 * same code as CloudPayments' Pay and Fail (webhooks.ts, settlement.ts), so it is applied
 * once per payment id whatever comes twice or out of order, and the first-payment and
 * trial rules of DESIGN §13 hold (a card that had its trial is refused it here, at Pay,
 * and refunded: YooKassa has no Check). Answers whether it was ours to apply.
 */
export async function applyVerifiedPayment(services: Services, payment: YooKassaPayment): Promise<boolean> {
  const { database, clock } = services;
  const invoiceId = payment.metadata?.[metadataKeys.invoiceId];
  const row = invoiceId ? await payments.byInvoice(database, invoiceId) : undefined;
  if (!invoiceId || !row) {
    logger.error("a YooKassa payment names no invoice of ours; not applied", {
      paymentId: payment.id,
      invoiceId,
    });
    return false;
  }
  const fields = fieldsOf(payment, invoiceId);
  const now = clock.now();
  if (payment.status === "succeeded" && isMoneyForNothing(row, payment, fields)) {
    const amount = parseAmount(fields.Amount) ?? 0;
    await duplicatePayments.record(
      database,
      {
        transaction_id: payment.id,
        payment_id: row.id,
        provider: "yookassa",
        amount,
        currency: row.currency,
      },
      now,
    );
    logger.warn("YooKassa took money for an order it does not pay for; it goes back", {
      invoiceId,
      paymentId: payment.id,
    });
    await refundDuplicatePaymentsNow(services);
    return true;
  }
  if (payment.status === "canceled" && row.provider_payment_id && row.provider_payment_id !== payment.id) {
    // An earlier payment of an order opened again since: its end does not decline the order.
    logger.info("a superseded YooKassa payment of an order ended", { invoiceId, paymentId: payment.id });
    return true;
  }
  if (row.status === "pending" && (row.provider !== "yookassa" || row.provider_payment_id !== payment.id))
    // Refunds and look-ups of this order go where its money is.
    await payments.startedAt(
      database,
      row.id,
      {
        provider: "yookassa",
        method: payment.payment_method?.type === "sbp" ? "sbp" : "card",
        providerPaymentId: payment.id,
        qrExpiresAt: row.qr_expires_at,
      },
      now,
    );
  const applied = await applyNotification(
    database,
    payment.status === "succeeded" ? "pay" : "fail",
    fields,
    now,
  );
  if (applied.isDuplicate) await refundDuplicatePaymentsNow(services);
  if (payment.status === "succeeded" && invoiceId.startsWith(firstInvoicePrefix)) {
    const paid = await payments.byInvoice(database, invoiceId);
    if (paid?.trial_refusal && paid.status === "completed") await refundRefusedTrialsNow(services);
  }
  return true;
}

/**
 * A refund YooKassa confirmed, of a payment it confirmed: the payment first (a refund may
 * come before the payment's own notification), then the refund, once per refund id.
 */
export async function applyVerifiedRefund(
  services: Services,
  refund: YooKassaRefund,
  payment: YooKassaPayment,
): Promise<boolean> {
  if (!(await applyVerifiedPayment(services, payment))) return false;
  const invoiceId = payment.metadata?.[metadataKeys.invoiceId] ?? "";
  const { code } = await applyNotification(
    services.database,
    "refund",
    {
      TransactionId: refund.id,
      PaymentTransactionId: payment.id,
      Amount: refund.amount.value,
      Currency: refund.amount.currency,
      InvoiceId: invoiceId,
      AccountId: payment.metadata?.[metadataKeys.accountId] ?? "",
    },
    services.clock.now(),
  );
  if (code !== 0)
    logger.warn("a YooKassa refund found no paid payment of ours", {
      refundId: refund.id,
      paymentId: payment.id,
    });
  return code === 0;
}
