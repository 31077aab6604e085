import { isoTime } from "../../../../core/date-time";
import type { PaymentProvider } from "../../../../core/payment-methods";
import { payments } from "../../../../db/queries/payments";
import { renderSbpQrImage } from "../../../adapters/sandbox/sbp-qr-image";
import type { AppContext } from "../../../context";
import { AppError } from "../../../platform/errors";
import { logger } from "../../../platform/logger";
import type { StartedPayment } from "../providers/provider";
import { providerOf } from "../providers/provider-of";
import { buildReceipt, receiptOf } from "../receipts/receipt";
import type { PayBy } from "./sbp-order";

/**
 * Where the payer goes to pay an order opened at a provider: its page (`confirmationUrl`),
 * or for SBP the link a phone opens in the bank's app, its QR image (base64 PNG) for a
 * desktop, and when it stops taking payment, as an SBP order through CloudPayments says.
 */
export type StartedOrder =
  | { provider: PaymentProvider; invoiceId: string; confirmationUrl: string }
  | {
      provider: PaymentProvider;
      invoiceId: string;
      sbp: { qrUrl: string; qrImage: string; expiresAt: string };
    };

type OrderContext = Pick<AppContext, "database" | "clock" | "config" | "payments">;

/**
 * Opens a first payment's order (already committed by orders.ts) at a provider whose payer
 * pays on its page or by SBP QR (DESIGN §6: YooKassa), and moves the order there: its
 * provider, method and the provider's payment id, so the notification, refunds and
 * look-ups go where its money is. What the order path calls once the operator's choice of
 * provider sends an order to YooKassa; CloudPayments' orders keep their widget. Opening
 * the same order again as it was gives the same payment (the provider's idempotence key).
 * `receiptEmail`: where the 54-FZ receipt goes when the order has no account yet (an
 * anonymous purchase); YooKassa takes no receipt without one.
 */
export async function startProviderPayment(
  context: OrderContext,
  invoiceId: string,
  provider: PaymentProvider,
  payBy: PayBy,
  page: { returnUrl: string; receiptEmail?: string },
): Promise<StartedOrder> {
  const { database, clock } = context;
  const order = await payments.byInvoice(database, invoiceId);
  if (order?.kind !== "first") throw new AppError("order_not_found");
  if (order.status !== "pending") throw new AppError("purchase_already_paid");
  const client = providerOf(context.payments, provider);
  // SBP moves roubles only, and only where the provider takes it.
  const isTaken =
    client.methods.includes(payBy.method) && (payBy.method !== "sbp" || order.currency === "RUB");
  if (!client.startPayment || !isTaken)
    throw new AppError("payment_method_unavailable", { method: payBy.method });
  const receipt =
    order.user_id === null && page.receiptEmail
      ? buildReceipt(order, page.receiptEmail, context.config.receipts)
      : await receiptOf(context, order);
  if (!receipt.email) throw new AppError("payment_method_unavailable", { method: payBy.method });
  let started: StartedPayment;
  try {
    started = await client.startPayment(
      {
        invoiceId: order.invoice_id,
        accountId: order.account_id,
        amount: order.amount,
        currency: order.currency,
        description: order.description,
      },
      { method: payBy.method, saveMethod: payBy.saveMethod, returnUrl: page.returnUrl },
      receipt,
    );
  } catch (error) {
    logger.warn("a provider did not open a payment", { provider, invoiceId, error: String(error) });
    throw new AppError("payment_service_unreachable", {}, { retryAfterSeconds: 30 });
  }
  const expiresAt = started.kind === "qr" ? started.expiresAt : null;
  await payments.startedAt(
    database,
    order.id,
    { provider, method: payBy.method, providerPaymentId: started.providerPaymentId, qrExpiresAt: expiresAt },
    clock.now(),
  );
  if (started.kind === "redirect") return { provider, invoiceId, confirmationUrl: started.confirmationUrl };
  return {
    provider,
    invoiceId,
    sbp: {
      qrUrl: started.qrUrl,
      qrImage: await renderSbpQrImage(started.qrUrl),
      expiresAt: isoTime(started.expiresAt),
    },
  };
}
