import type { TariffMonths } from "../../../core/prices";
import { AppError } from "../../platform/errors";

/** The trial length a sign-up or order may ask for: 1 to 30 whole days. */
export function assertPeriod(period: number): number {
  if (!Number.isInteger(period) || period < 1 || period > 30) {
    throw new AppError("invalid_period");
  }
  return period;
}

export function assertTariff(tariff: number): TariffMonths {
  if (tariff !== 1 && tariff !== 3 && tariff !== 6 && tariff !== 12) {
    throw new AppError("invalid_tariff");
  }
  return tariff;
}
