import { isoTime } from "../../../../core/date-time";
import type { Currency } from "../../../../core/money";
import { payerPhoneOf } from "../../../../core/payer-phone";
import type { PaymentMethod, PaymentProvider } from "../../../../core/payment-methods";
import { payments } from "../../../../db/queries/payments";
import type { AppContext } from "../../../context";
import { AppError } from "../../../platform/errors";
import { logger } from "../../../platform/logger";
import { offeredMethods, purchaseProviders } from "../routing/payment-routes";
import { recordedCall } from "../routing/provider-health";
import type { WidgetOptions } from "./orders";
import { startProviderPayment } from "./provider-order";

/** How long an order's SBP QR takes payment: long enough to find the bank's app, short enough to be one sitting. */
export const sbpQrMinutes = 30;

/**
 * How the customer asked to pay a first order: by card (the widget) or by SBP, saving it for
 * renewals or not; by SBP with the payer's phone (`+79123456789`) where the terminal needs it.
 */
export type PayBy = { method: PaymentMethod; saveMethod: boolean; payerPhone?: string };

type OrderContext = Pick<AppContext, "database" | "clock" | "config" | "payments">;

/**
 * How an order asks to be paid, checked before any order is written (a card always saved
 * for renewals, SBP autopay when the payer allowed it): an SBP order on a
 * terminal that needs the payer's phone (SBP_PAYER_PHONE=required) must name one, +7 and 10
 * digits. Where SBP is not offered for the buyer's `currency`, the order's own refusal
 * (payment_method_unavailable) says so instead: no phone would make it payable.
 */
export async function payByOf(
  context: OrderContext,
  asked: { method?: PaymentMethod; saveMethod?: boolean; payerPhone?: string },
  currency: Currency,
): Promise<PayBy> {
  const method = asked.method ?? "card";
  // A card is kept for the renewals wherever it is paid: CloudPayments' widget saves every
  // card it charges and the purchase screen's consent says renewals charge it, while YooKassa
  // saves one only when asked. SBP autopay is the payer's own choice (the box on the screen).
  const payBy: PayBy = { method, saveMethod: method === "card" || asked.saveMethod === true };
  const needsPhone =
    payBy.method === "sbp" &&
    context.config.sbpPayerPhone === "required" &&
    (await offeredMethods(context, currency)).includes("sbp");
  if (!needsPhone) return payBy;
  const payerPhone = payerPhoneOf(asked.payerPhone ?? "");
  if (!payerPhone) throw new AppError("payer_phone_required");
  return { ...payBy, payerPhone };
}

/**
 * The provider this order goes to: the operator's routes for its method, healthy ones first
 * (routing/payment-routes.ts), among those that can take it. YooKassa sends every receipt
 * somewhere, so an order with no e-mail yet (an anonymous purchase) stays with CloudPayments,
 * whose widget asks for none.
 */
async function providerForOrder(context: OrderContext, payBy: PayBy, options: WidgetOptions) {
  const candidates = await purchaseProviders(context, payBy.method, options.currency);
  const provider = candidates.find((name) => name === "cloudpayments" || options.email !== undefined);
  if (provider) return provider;
  throw payBy.method === "card"
    ? new AppError("payments_unavailable")
    : new AppError("payment_method_unavailable", { method: payBy.method });
}

/**
 * The order as the customer will pay it, at the provider the operator's routes choose
 * (DESIGN §6, choice and failover). CloudPayments by card: the widget's options as they
 * are. CloudPayments by SBP: the gateway's QR for the same order (its link opens the bank's
 * app on a phone; its image is scanned from a desktop), the order marked as an SBP one
 * until the QR's end. YooKassa: its payment page (`confirmationUrl`) or its SBP QR. The
 * outcome comes only by notification; the screen asks /api/shop/orderStatus.
 */
export async function payableOrder(
  context: OrderContext,
  order: { id: number; method: PaymentMethod },
  options: WidgetOptions,
  payBy: PayBy,
  ip: string | null,
): Promise<WidgetOptions> {
  const provider = await providerForOrder(context, payBy, options);
  if (provider !== "cloudpayments") return atProvider(context, provider, options, payBy);
  const { database, clock } = context;
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
          ...(payBy.payerPhone ? { Phone: payBy.payerPhone } : {}),
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

/**
 * The order opened at a provider that takes the payer to its own page or QR (YooKassa):
 * the screen goes to `confirmationUrl`, or shows the QR as for CloudPayments' SBP. The payer
 * comes back through /api/payments/yookassa/return, which settles what YooKassa decided and
 * opens the cabinet.
 */
async function atProvider(
  context: OrderContext,
  provider: PaymentProvider,
  options: WidgetOptions,
  payBy: PayBy,
): Promise<WidgetOptions> {
  const returnUrl = `${context.config.publicUrl}/api/payments/yookassa/return?order=${encodeURIComponent(options.invoiceId)}`;
  const started = await startProviderPayment(context, options.invoiceId, provider, payBy, { returnUrl });
  return {
    ...options,
    provider,
    ...("confirmationUrl" in started ? { confirmationUrl: started.confirmationUrl } : { sbp: started.sbp }),
  };
}
