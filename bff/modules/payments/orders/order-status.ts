import { translator } from "../../../../core/i18n";
import type { Language } from "../../../../core/languages";
import { toCurrencyUnits } from "../../../../core/money";
import { planFor } from "../../../../core/prices";
import { type PaymentRow, payments } from "../../../../db/queries/payments";
import { subscriptions } from "../../../../db/queries/subscriptions";
import type { AppContext } from "../../../context";
import { AppError } from "../../../platform/errors";
import { firstOrderTerms } from "./first-order";
import type { orderStatus } from "./order-model";
import { firstInvoicePrefix } from "./orders";

/** OrderStatus: inferred from its schema in order-model.ts, the one source of its shape. */
export type OrderStatus = typeof orderStatus.static;

/**
 * Why the trial was not given, by who had it before and whether the bank took the payment:
 * refused at Check, nothing was charged; refused at Pay, it was, and goes back to the card.
 */
const reasonKeys = {
  card: { atCheck: "order.trialRefusedCardAtCheck", atPay: "order.trialRefusedCardAtPay" },
  customer: { atCheck: "order.trialRefusedCustomerAtCheck", atPay: "order.trialRefusedCustomer" },
  // Refused when a prepaid purchase was bound to an account that had its trial (paid, then).
  account: { atCheck: "order.trialRefusedCustomerAtCheck", atPay: "order.trialRefusedCustomer" },
} as const;

/**
 * An order nobody refused a trial for. An SBP one says more, as the screen waiting for it
 * shows no bank's window: declined by the payer's bank, or its QR ended unpaid.
 */
function plainStatus(payment: PaymentRow, language: Language, now: number): OrderStatus {
  if (payment.method !== "sbp") return { status: payment.status };
  const say = translator(language);
  if (payment.status === "declined") return { status: "declined", reason: say("order.sbpDeclined") };
  if (payment.status === "pending" && payment.qr_expires_at !== null && now > payment.qr_expires_at)
    return { status: "expired", reason: say("order.sbpExpired") };
  return { status: payment.status };
}

/**
 * What became of a first payment's order, for the purchase screen after the widget
 * closes: the widget only says the payment failed (Check's code 13 reads as any decline)
 * or went through, not that the trial was refused, so the screen asks here (DESIGN §13).
 * The invoice id is an unguessable token only its buyer's page holds, so anonymous
 * purchases can ask too; the answer names no one.
 */
export async function orderStatusOf(
  context: Pick<AppContext, "database" | "clock">,
  invoiceId: string,
  language: Language,
): Promise<OrderStatus> {
  const { database, clock } = context;
  const payment = invoiceId.startsWith(firstInvoicePrefix)
    ? await payments.byInvoice(database, invoiceId)
    : undefined;
  if (!payment) throw new AppError("order_not_found");
  const refusal = payment.is_trial ? payment.trial_refusal : null;
  if (!refusal) return plainStatus(payment, language, clock.now());
  const wasCharged = payment.status === "completed" || payment.status === "refunded";
  const reasonKey = reasonKeys[refusal][wasCharged ? "atPay" : "atCheck"];
  const tariff = payment.tariff_months ?? 1;
  const period = payment.trial_days ?? 1;
  const plan = planFor(payment.currency, tariff, period);
  let amount = plan.periodPrice;
  if (payment.user_id !== null) {
    // A customer's price is after their discounts, as their order at the price will be.
    const current = await subscriptions.current(database, payment.user_id);
    const terms = await firstOrderTerms(
      database,
      payment.user_id,
      plan,
      current,
      language,
      clock.now(),
      true,
    );
    amount = terms.amountNow;
  }
  return {
    status: payment.status,
    trialRefused: refusal,
    reason: translator(language)(reasonKey),
    fullPrice: { amount: toCurrencyUnits(amount), currency: payment.currency, tariff, period },
  };
}
