import { isoTime } from "../../../../core/date-time";
import type { Currency } from "../../../../core/money";
import { payerPhoneOf } from "../../../../core/payer-phone";
import type { PaymentMethod } from "../../../../core/payment-methods";
import { payments } from "../../../../db/queries/payments";
import type { AppContext } from "../../../context";
import { AppError } from "../../../platform/errors";
import { logger } from "../../../platform/logger";
import type { WidgetOptions } from "./orders";

/** How long an order's SBP QR takes payment: long enough to find the bank's app, short enough to be one sitting. */
export const sbpQrMinutes = 30;

/**
 * How the customer asked to pay a first order: by card (the widget) or by SBP, saving it for
 * renewals or not; by SBP with the payer's phone (`+79123456789`) where the terminal needs it.
 */
export type PayBy = { method: PaymentMethod; saveMethod: boolean; payerPhone?: string };

/**
 * SBP is offered where the bank takes it: the sandbox always; a real CloudPayments terminal
 * once the operator enabled it there (DESIGN §6). Until the panel's provider settings exist,
 * that is demo mode only.
 */
export const isSbpOffered = (context: Pick<AppContext, "config">) => context.config.mode === "demo";

/**
 * The ways a purchase in `currency` can be paid: the card always; SBP where it is offered
 * and only for roubles (SBP moves roubles only: a purchase in tenge is paid by card). The
 * purchase screens show exactly these (GET /api/payments/settings), and an order by another
 * is refused.
 */
export function offeredMethods(context: Pick<AppContext, "config">, currency: Currency): PaymentMethod[] {
  return isSbpOffered(context) && currency === "RUB" ? ["card", "sbp"] : ["card"];
}

/**
 * How an order asks to be paid, checked before any order is written: an SBP order on a
 * terminal that needs the payer's phone (SBP_PAYER_PHONE=required) must name one, +7 and 10
 * digits. Where SBP is not offered for the buyer's `currency`, the order's own refusal
 * (payment_method_unavailable) says so instead: no phone would make it payable.
 */
export function payByOf(
  context: Pick<AppContext, "config">,
  asked: { method?: PaymentMethod; saveMethod?: boolean; payerPhone?: string },
  currency: Currency,
): PayBy {
  const payBy: PayBy = { method: asked.method ?? "card", saveMethod: asked.saveMethod === true };
  const needsPhone =
    payBy.method === "sbp" &&
    context.config.sbpPayerPhone === "required" &&
    offeredMethods(context, currency).includes("sbp");
  if (!needsPhone) return payBy;
  const payerPhone = payerPhoneOf(asked.payerPhone ?? "");
  if (!payerPhone) throw new AppError("payer_phone_required");
  return { ...payBy, payerPhone };
}

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
  if (payBy.method === "card") {
    // An anonymous purchase asked for by SBP first and by card now is a card order again.
    if (order.method !== "card") await payments.setMethod(database, order.id, "card", null, clock.now());
    return options;
  }
  if (!offeredMethods(context, options.currency).includes("sbp"))
    throw new AppError("payment_method_unavailable", { method: "sbp" });
  let answer: Awaited<ReturnType<typeof context.payments.gateway.sbpQr>>;
  try {
    answer = await context.payments.gateway.sbpQr(
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
