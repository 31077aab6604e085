import type { Currency } from "../../../core/money";
import { defaultPrices, priceAfterDiscount, type Share, type TariffMonths } from "../../../core/prices";
import type { Plan, SubscriptionRow } from "../../../db/queries/subscriptions";
import { AppError } from "../../platform/errors";

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

/** Price after a discount, rounded half up to whole currency units (DESIGN §5, §13). */
export const applyDiscount = (listPrice: number, discount: { total: Share }): number =>
  priceAfterDiscount(listPrice, discount.total);

export const toUnits = (minorUnits: number) => minorUnits / 100;

/** The trial length a sign-up or order may ask for: 1 to 30 whole days. */
export function assertPeriod(period: number): number {
  if (!Number.isInteger(period) || period < 1 || period > 30) {
    throw new AppError("VALIDATION", "period must be a whole number of days from 1 to 30.");
  }
  return period;
}

export function assertTariff(tariff: number): TariffMonths {
  if (tariff !== 1 && tariff !== 3 && tariff !== 6 && tariff !== 12) {
    throw new AppError("VALIDATION", "tariff must be 1, 3, 6 or 12 months.");
  }
  return tariff;
}
