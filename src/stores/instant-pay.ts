import { atom, computed } from "nanostores";
import { currencyOf } from "../../core/languages";
import type { TariffMonths } from "../../core/prices";
import { api } from "../lib/api-client";
import { instantPayTerms, resolveTrialDays } from "../lib/charge-terms";
import { $language } from "../lib/i18n/runtime";
import { $email, $period, $uid } from "./customer";
import { $orderTrial, $purchase } from "./payment";
import { $serverClockOffset, syncServerClock } from "./server-clock";

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

/** Without a stored e-mail the purchase is anonymous: it is attached to an account after paying (spec §2). */
export const $isAnonymousPurchase = computed($email, (email) => !email);

/**
 * A customer whose subscription is already active has nothing to buy here and goes to the
 * cabinet. No stored e-mail, no check (spec §5); a failed check leaves the page as it is.
 */
async function leaveIfSubscribed(): Promise<void> {
  if (!$email.get()) return;
  try {
    const { data } = await api.profile.post({ email: $email.get(), uid: $uid.get() });
    if (data?.userInfo.subscriptionIsActive) location.assign("/profile");
  } catch (error) {
    console.error("profile check failed", error);
  }
}

/** /instantPay opens: its dates are counted by the server's clock, and a subscriber is sent on. */
export async function openInstantPay(): Promise<void> {
  await Promise.all([syncServerClock(), leaveIfSubscribed()]);
}
