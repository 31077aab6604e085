import { isTariffMonths, isTrialDays, type TariffMonths } from "../../../core/prices";
import { AppError } from "../../platform/errors";

/** The trial length a sign-up or order asks for, or a refusal when it is not one it may. */
export function assertPeriod(period: number): number {
  if (!isTrialDays(period)) throw new AppError("invalid_period");
  return period;
}

export function assertTariff(tariff: number): TariffMonths {
  if (!isTariffMonths(tariff)) throw new AppError("invalid_tariff");
  return tariff;
}
