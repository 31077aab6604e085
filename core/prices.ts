import type { Currency } from "./money";

export type TariffMonths = 1 | 3 | 6 | 12;
export const tariffMonths: readonly TariffMonths[] = [1, 3, 6, 12];
/** The /instantPay selector offers only these (spec §5); the landing shows every tariff. */
export const selectableTariffs: readonly TariffMonths[] = [1, 6, 12];

export type PriceTable = {
  firstPayment: number;
  periods: Record<TariffMonths, number>;
  extraDevicePerMonth: number;
};

/** List prices in minor units (DESIGN §5); the server may override them by configuration. */
export const defaultPrices: Record<Currency, PriceTable> = {
  RUB: {
    firstPayment: 100,
    periods: { 1: 15_000, 3: 40_000, 6: 60_000, 12: 108_000 },
    extraDevicePerMonth: 5_000,
  },
  KZT: {
    firstPayment: 1_000,
    periods: { 1: 90_000, 3: 240_000, 6: 350_000, 12: 640_000 },
    extraDevicePerMonth: 30_000,
  },
};

/** How much a longer period saves against paying monthly, in whole percent. */
export function savingPercent(table: PriceTable, months: TariffMonths): number {
  const monthly = table.periods[1] * months;
  return Math.round(((monthly - table.periods[months]) / monthly) * 100);
}
