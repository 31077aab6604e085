import { isoTime } from "../../../../core/date-time";
import type { PaymentMethod } from "../../../../core/payment-methods";
import { payments } from "../../../../db/queries/payments";
import type { AppContext } from "../../../context";
import { AppError } from "../../../platform/errors";
import { logger } from "../../../platform/logger";
import { purchaseProvider } from "../routing/payment-routes";
import { recordedCall } from "../routing/provider-health";
import type { WidgetOptions } from "./orders";

/** How long an order's SBP QR takes payment: long enough to find the bank's app, short enough to be one sitting. */
export const sbpQrMinutes = 30;

/** How the customer asked to pay a first order: by card (the widget) or by SBP, saving it for renewals or not. */
export type PayBy = { method: PaymentMethod; saveMethod: boolean };

/**
 * The order as the customer will pay it. By card: the widget's options as they are. By SBP:
 * the gateway's QR for the same order (its link opens the bank's app on a phone; its image
 * is scanned from a desktop), the order marked as an SBP one until the QR's end. The outcome
 * comes only by the Pay or Fail notification; the screen asks /api/shop/orderStatus.
 */
export async function payableOrder(
  context: Pick<AppContext, "database" | "clock" | "config" | "payments">,
  order: { id: number; method: PaymentMethod },
  options: WidgetOptions,
  payBy: PayBy,
  ip: string | null,
): Promise<WidgetOptions> {
  const { database, clock } = context;
  // The operator's routes decide who takes it (DESIGN §6, choice and failover); until another
  // provider can start a purchase, a method whose first route is not CloudPayments is not offered.
  const provider = await purchaseProvider(context, payBy.method, options.currency);
  if (provider !== "cloudpayments")
    throw payBy.method === "card"
      ? new AppError("payments_unavailable")
      : new AppError("payment_method_unavailable", { method: payBy.method });
  if (payBy.method === "card") {
    // An anonymous purchase asked for by SBP first and by card now is a card order again.
    if (order.method !== "card") await payments.setMethod(database, order.id, "card", null, clock.now());
    return options;
  }
  let answer: Awaited<ReturnType<typeof context.payments.gateway.sbpQr>>;
  try {
    answer = await recordedCall(context.payments.health, provider, () =>
      context.payments.gateway.sbpQr(
        {
          Amount: options.amount,
          Currency: options.currency,
          InvoiceId: options.invoiceId,
          AccountId: options.accountId,
          Description: options.description,
          ...(options.email ? { Email: options.email } : {}),
          ...(ip ? { IpAddress: ip } : {}),
          SaveCard: payBy.saveMethod,
          TtlMinutes: sbpQrMinutes,
        },
        options.data.CloudPayments.CustomerReceipt,
      ),
    );
  } catch (error) {
    logger.warn("the gateway made no SBP QR", { invoiceId: options.invoiceId, error: String(error) });
    throw new AppError("payment_service_unreachable", {}, { retryAfterSeconds: 30 });
  }
  const qr = answer.Model;
  if (!answer.Success || !qr?.QrUrl) {
    logger.warn("the gateway refused an SBP QR", { invoiceId: options.invoiceId, message: answer.Message });
    throw new AppError("payment_service_unreachable", {}, { retryAfterSeconds: 30 });
  }
  const now = clock.now();
  const stated = qr.ExpiresAt ? Date.parse(qr.ExpiresAt) : Number.NaN;
  const expiresAt = Number.isNaN(stated) ? now + sbpQrMinutes * 60_000 : stated;
  await payments.setMethod(database, order.id, "sbp", expiresAt, now);
  return {
    ...options,
    sbp: { qrUrl: qr.QrUrl, qrImage: qr.QrImage ?? null, expiresAt: isoTime(expiresAt) },
  };
}
