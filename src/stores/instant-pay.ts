import { atom, computed } from "nanostores";
import { currencyOf } from "../../core/languages";
import type { TariffMonths } from "../../core/prices";
import { instantPayTerms, resolveTrialDays } from "../lib/charge-terms";
import { $language } from "../lib/i18n/runtime";
import { $period } from "./customer";
import { $orderTrial, $purchase } from "./payment";
import { $serverClockOffset } from "./server-clock";

/** The /instantPay selector (spec §5: 1, 6 or 12 months). */
export const $instantTariff = atom<TariffMonths>(1);

export function chooseInstantTariff(months: TariffMonths): void {
  $instantTariff.set(months);
  // An order's answer was for the tariff chosen then; the new one starts from the list price.
  $orderTrial.set(undefined);
  if ($purchase.get().state === "changed") $purchase.set({ state: "idle" });
}

/**
 * /instantPay's terms (DESIGN §13(c)): the stored trial days (`period`, from /login's i;
 * 1 without it, spec §5) and the chosen tariff's list price, in the currency of the
 * interface language, as its anonymous order is priced.
 */
export const $instantTerms = computed(
  [$instantTariff, $period, $language, $serverClockOffset, $orderTrial],
  (tariff, period, language, offset, order) =>
    instantPayTerms({
      now: Date.now() + offset,
      trialDays: resolveTrialDays(period),
      tariff,
      currency: currencyOf(language),
      order,
    }),
);
