import type { Plan, SubscriptionRow } from "../../../db/queries/subscriptions";
import { defaultPrices, type TariffMonths } from "../../../src/content/prices";
import type { Currency } from "../../../src/lib/money";

/** The plan a customer signs up for: the first payment and the tariff's list price. */
export function planFor(currency: Currency, tariffMonths: TariffMonths, trialDays: number): Plan {
  const table = defaultPrices[currency];
  return {
    tariffMonths,
    trialDays,
    currency,
    firstPayment: table.firstPayment,
    periodPrice: table.periods[tariffMonths],
  };
}

/** List price of one period with the bought extra device slots. */
export function listPriceOfPeriod(subscription: SubscriptionRow): number {
  const devicePrice = defaultPrices[subscription.currency].extraDevicePerMonth;
  return subscription.period_price + subscription.extra_devices * devicePrice * subscription.tariff_months;
}

/** Price after a discount, rounded to whole currency units (DESIGN §5). */
export function applyDiscount(listPrice: number, discountPercent: number): number {
  const discounted = (listPrice * (100 - Math.min(100, Math.max(0, discountPercent)))) / 100;
  return Math.round(discounted / 100) * 100;
}

export const toUnits = (minorUnits: number) => minorUnits / 100;
