import { addMonths } from "../../core/calendar";
import { type Currency, toCurrencyUnits } from "../../core/money";
import { defaultPrices, firstOrderCharges, isTrialDays, type TariffMonths } from "../../core/prices";

/**
 * What buying now costs and when the money is taken: the facts the purchase screens and
 * the consent text must state (DESIGN §13(c)). Amounts are currency units, dates ISO 8601.
 */
export type ChargeTerms = {
  hasTrial: boolean;
  /** Trial days the order asks for (the stored `period`); they apply only with a trial. */
  trialDays: number;
  /** Charged when the widget is paid. */
  payNow: number;
  /** The first full-price charge: the end of the trial, or today without one. */
  firstCharge: { date: string; amount: number };
  /** The charge that follows today's payment: the first full charge, or the first renewal. */
  nextCharge: { date: string; amount: number };
  /** Renewals after that: `nextCharge.amount` every `periodMonths` months. */
  periodMonths: number;
  currency: Currency;
  /** Why there is no trial, in the customer's language, when the server said so. */
  noTrialReason?: string;
};

export type TermsInput = {
  /** The server's clock when known: it, not the browser, starts the trial. */
  now: number;
  trialDays: number;
  periodMonths: number;
  currency: Currency;
  /** The 1-unit trial payment. */
  firstPayment: number;
  /** One period's price after discounts. */
  periodPrice: number;
  /** The server's word; without it the trial is assumed (the order answer corrects it). */
  hasTrial?: boolean;
  /** The server's own first full charge, preferred when it is well formed. */
  firstCharge?: { date: string; amount: number };
  noTrialReason?: string;
  /** The amount an order answered for today's payment; it wins over the prices above. */
  orderAmount?: number;
};

// The same calendar the server bills by.
export { addMonths };

const isValidCharge = (charge: TermsInput["firstCharge"]): charge is { date: string; amount: number } =>
  charge !== undefined &&
  Number.isFinite(Date.parse(charge.date)) &&
  Number.isFinite(charge.amount) &&
  charge.amount >= 0;

/** The trial length the order will carry: the stored `period` (1..30), else the server's, else 1. */
export function resolveTrialDays(stored: string | null | undefined, fromServer?: number): number {
  const storedDays = Number(stored);
  if (stored && isTrialDays(storedDays)) return storedDays;
  if (fromServer !== undefined && isTrialDays(fromServer)) return fromServer;
  return 1;
}

/**
 * With a trial: the trial payment now, the full price `trialDays` days later (the server
 * adds whole days to the moment of payment). Without: the full price now and again one
 * period later. The server's own rule (core/prices.ts firstOrderCharges) fills in what
 * the server did not say.
 */
export function chargeTerms(input: TermsInput): ChargeTerms {
  const hasTrial = input.hasTrial ?? true;
  const rule = firstOrderCharges({ ...input, isTrial: hasTrial });
  const serverCharge = isValidCharge(input.firstCharge) ? input.firstCharge : undefined;
  const firstChargeTime = serverCharge ? Date.parse(serverCharge.date) : rule.firstCharge.at;
  const amount =
    (hasTrial ? undefined : input.orderAmount) ?? serverCharge?.amount ?? rule.firstCharge.amount;
  const firstCharge = { date: new Date(firstChargeTime).toISOString(), amount };
  const nextCharge = hasTrial
    ? firstCharge
    : { date: new Date(addMonths(firstChargeTime, input.periodMonths)).toISOString(), amount };
  return {
    hasTrial,
    trialDays: input.trialDays,
    payNow: hasTrial ? (input.orderAmount ?? rule.amountNow) : amount,
    firstCharge,
    nextCharge,
    periodMonths: input.periodMonths,
    currency: input.currency,
    ...(!hasTrial && input.noTrialReason ? { noTrialReason: input.noTrialReason } : {}),
  };
}

/**
 * /instantPay has no shop call: the list prices of the chosen tariff, with a trial unless
 * the order said otherwise (an anonymous buyer's card is only known at payment).
 */
export function instantPayTerms(choice: {
  now: number;
  trialDays: number;
  tariff: TariffMonths;
  currency: Currency;
  order?: OrderTrial;
}): ChargeTerms {
  const table = defaultPrices[choice.currency];
  return chargeTerms({
    now: choice.now,
    trialDays: choice.trialDays,
    periodMonths: choice.tariff,
    currency: choice.currency,
    firstPayment: toCurrencyUnits(table.firstPayment),
    periodPrice: toCurrencyUnits(table.periods[choice.tariff]),
    hasTrial: choice.order?.hasTrial ?? true,
    noTrialReason: choice.order?.reason,
    orderAmount: choice.order?.amount,
  });
}

/** The getShop fields these terms read; the trial fields are optional until every server sends them. */
export type ShopTermsSource = {
  firstPayment: number;
  monthlyPayment: number;
  periodMonths: number;
  currency: Currency;
  trial?: unknown;
  trialDays?: unknown;
  noTrialReason?: unknown;
  firstCharge?: unknown;
};

/** What the last order answered, when it contradicted the screen: its amount is charged now. */
export type OrderTrial = {
  hasTrial: boolean;
  amount: number;
  reason?: string;
  /** The trial was refused for the card: the next order asks for the plan at its price. */
  isFullPriceAsked?: boolean;
};

function serverFirstCharge(value: unknown): { date: string; amount: number } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { date, amount } = value as { date?: unknown; amount?: unknown };
  return typeof date === "string" && typeof amount === "number" ? { date, amount } : undefined;
}

/**
 * The cabinet's terms: the server's trial fields when it sends them, else the same rule
 * on this side. Its first-charge date is used only when it counted the same trial days
 * as the order will carry (the stored `period` may differ from the one at sign-up).
 */
export function shopTerms(
  shop: ShopTermsSource,
  context: { now: number; storedPeriod: string | null | undefined; order?: OrderTrial },
): ChargeTerms {
  const serverDays = typeof shop.trialDays === "number" ? shop.trialDays : undefined;
  const serverTrial = typeof shop.trial === "boolean" ? shop.trial : undefined;
  const trialDays = resolveTrialDays(context.storedPeriod, serverDays);
  const hasTrial = context.order?.hasTrial ?? serverTrial ?? true;
  const isServerCase = serverTrial === hasTrial && (!hasTrial || serverDays === trialDays);
  const reason =
    context.order?.reason ?? (typeof shop.noTrialReason === "string" ? shop.noTrialReason : undefined);
  return chargeTerms({
    now: context.now,
    trialDays,
    periodMonths: shop.periodMonths,
    currency: shop.currency,
    firstPayment: shop.firstPayment,
    periodPrice: shop.monthlyPayment,
    hasTrial,
    firstCharge: isServerCase ? serverFirstCharge(shop.firstCharge) : undefined,
    noTrialReason: reason,
    orderAmount: context.order?.amount,
  });
}
