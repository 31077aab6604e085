import { translator } from "../../../../core/i18n";
import type { Language } from "../../../../core/languages";
import { type Currency, toCurrencyUnits } from "../../../../core/money";
import { firstOrderCharges, planFor } from "../../../../core/prices";
import { type PaymentRow, payments } from "../../../../db/queries/payments";
import { hasAccess, subscriptions } from "../../../../db/queries/subscriptions";
import type { UserRow } from "../../../../db/queries/users";
import { receiptJsonData } from "../../../adapters/cloudpayments/receipt";
import type { AppContext } from "../../../context";
import { AppError } from "../../../platform/errors";
import { randomToken } from "../../../platform/random";
import { assertPeriod, assertTariff } from "../../subscriptions/pricing";
import { buildReceipt, type ReceiptSubject } from "../receipts/receipt";
import { type FirstOrderTerms, firstOrderTerms } from "./first-order";
import type { widgetOptions as widgetOptionsSchema } from "./order-model";
import { type PayBy, payableOrder } from "./sbp-order";

/** WidgetOptions: inferred from its schema in order-model.ts, the one source of its shape. */
export type WidgetOptions = typeof widgetOptionsSchema.static;

const byCard: PayBy = { method: "card", saveMethod: false };

/** How every first payment's invoice id starts. */
export const firstInvoicePrefix = "first-";

/** The gateway account of a customer: stable across e-mail changes. */
export const accountIdOf = (userId: number) => `customer-${userId}`;

/**
 * What a first payment buys, in `language`: the widget shows the buyer's; the stored
 * description is the English one, for the records and the gateway's statement (the fiscal
 * line is Russian by law).
 */
const describeOrder = (language: Language, months: number, days: number, isTrial: boolean) =>
  translator(language)(isTrial ? "order.widgetTrial" : "order.widgetFullPrice", { months, days });

type OrderContext = Pick<AppContext, "database" | "clock" | "config" | "payments">;

/** Outside the order's transaction: registering it may be a call to another instance's sandbox. */
async function widgetOptions(
  context: Pick<AppContext, "config" | "payments">,
  order: ReceiptSubject & Pick<PaymentRow, "currency" | "invoice_id" | "account_id" | "description">,
  terms: { trial: boolean; reason?: string },
  language: Language,
  email?: string,
): Promise<WidgetOptions> {
  const data = receiptJsonData(buildReceipt(order, email ?? null, context.config.receipts));
  await context.payments.registerOrder({ ...order, email: email ?? null, data });
  return {
    publicId: context.payments.gateway.publicId,
    amount: toCurrencyUnits(order.amount),
    currency: order.currency,
    invoiceId: order.invoice_id,
    accountId: order.account_id,
    description: describeOrder(language, order.tariff_months ?? 1, order.trial_days ?? 1, terms.trial),
    ...(email ? { email } : {}),
    trial: terms.trial,
    ...(terms.reason ? { reason: terms.reason } : {}),
    data,
  };
}

/** The first payment of a signed-in customer; the server, never the browser, decides the amount. */
export async function createCustomerOrder(
  context: OrderContext,
  user: UserRow,
  tariffInput: number,
  periodInput: number,
  ip: string | null,
  language: Language,
  isFullPriceAsked = false,
  payBy: PayBy = byCard,
): Promise<WidgetOptions> {
  const tariff = assertTariff(tariffInput);
  const trialDays = assertPeriod(periodInput);
  const { database, clock } = context;
  const now = clock.now();
  let terms: FirstOrderTerms | undefined;
  const order = await database.transaction(async () => {
    let current = await subscriptions.current(database, user.id);
    if (hasAccess(current, now)) throw new AppError("subscription_already_active");
    const plan = planFor(current?.currency ?? user.currency, tariff, trialDays);
    if (current?.status !== "NOT_ACTIVE") {
      await subscriptions.insertNotActive(database, user.id, plan, now);
    } else {
      await subscriptions.updatePlan(database, current.id, plan, now);
    }
    current = await subscriptions.current(database, user.id);
    if (!current) throw new Error("subscription missing after insert");
    terms = await firstOrderTerms(database, user.id, plan, current, language, now, isFullPriceAsked);
    return payments.insert(
      database,
      {
        userId: user.id,
        subscriptionId: current.id,
        kind: "first",
        invoiceId: `${firstInvoicePrefix}${randomToken(12)}`,
        accountId: accountIdOf(user.id),
        amount: terms.amountNow,
        currency: plan.currency,
        description: describeOrder("en", tariff, trialDays, terms.isTrial),
        ipAddress: ip,
        tariffMonths: tariff,
        trialDays,
        isTrial: terms.isTrial,
      },
      now,
    );
  });
  const options = await widgetOptions(
    context,
    order,
    { trial: terms?.isTrial ?? true, reason: terms?.noTrialReason },
    language,
    user.email,
  );
  return payableOrder(context, order, options, payBy, ip);
}

/**
 * An anonymous purchase on /instantPay: the prepaid token (spec §3 payment id) is the
 * account; the purchase is bound to an account at sign-up, once.
 */
export async function createPrepaidOrder(
  context: OrderContext,
  prepaidToken: string,
  tariffInput: number,
  periodInput: number,
  currency: Currency,
  ip: string | null,
  language: Language = "ru",
  isFullPriceAsked = false,
  payBy: PayBy = byCard,
): Promise<WidgetOptions> {
  const tariff = assertTariff(tariffInput);
  const trialDays = assertPeriod(periodInput);
  const { database, clock } = context;
  const plan = planFor(currency, tariff, trialDays);
  // The buyer is not known yet: a trial, once per card (checked at Check and Pay), unless
  // they asked for the plan at its price because their card had one.
  const isTrial = !isFullPriceAsked;
  // No discount applies to an anonymous buyer: the list price, by the rule every first order follows.
  const { amountNow } = firstOrderCharges({
    isTrial,
    firstPayment: plan.firstPayment,
    periodPrice: plan.periodPrice,
    trialDays,
    now: clock.now(),
  });
  const terms = {
    amount: amountNow,
    description: describeOrder("en", tariff, trialDays, isTrial),
  };
  // One transaction from the look-up to the write: two requests with one token at once
  // (a double click, a retry) make one order, the second changing its plan, instead of
  // both inserting and the second failing on the token's uniqueness.
  const order = await database.transaction(async () => {
    const existing = await payments.byPrepaidToken(database, prepaidToken);
    if (existing && existing.status !== "pending") {
      throw new AppError("purchase_already_paid");
    }
    if (!existing)
      return payments.insert(
        database,
        {
          userId: null,
          subscriptionId: null,
          kind: "first",
          invoiceId: `${firstInvoicePrefix}${randomToken(12)}`,
          accountId: prepaidToken,
          amount: terms.amount,
          currency: plan.currency,
          description: terms.description,
          ipAddress: ip,
          tariffMonths: tariff,
          trialDays,
          prepaidToken,
          isTrial,
        },
        clock.now(),
      );
    await payments.updatePendingPlan(
      database,
      existing.id,
      {
        tariffMonths: tariff,
        trialDays,
        amount: terms.amount,
        currency: plan.currency,
        description: terms.description,
        isTrial,
      },
      clock.now(),
    );
    return existing;
  });
  const options = await widgetOptions(
    context,
    {
      ...order,
      amount: terms.amount,
      currency: plan.currency,
      description: terms.description,
      tariff_months: tariff,
      trial_days: trialDays,
      is_trial: isTrial ? 1 : 0,
    },
    { trial: isTrial },
    language,
  );
  return payableOrder(context, order, options, payBy, ip);
}
