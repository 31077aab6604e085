import { computed } from "nanostores";
import { shopTerms } from "../lib/charge-terms";
import { $shop, type ShopData } from "./cabinet";
import { $period, $tariff } from "./customer";
import { $orderTrial } from "./payment";
import { $serverClockOffset } from "./server-clock";

export type ShopPlan = ShopData["plans"][number];

/** The plan the purchase block offers: the stored tariff (a price card's `j`) when the shop prices it. */
export function chosenPlan(shop: ShopData, tariff: string): ShopPlan | undefined {
  const wanted = Number(tariff) || shop.periodMonths;
  return (
    shop.plans.find((plan) => plan.months === wanted) ??
    shop.plans.find((plan) => plan.months === shop.periodMonths)
  );
}

/** The shop data as if the chosen plan were the customer's: what an order for it would charge. */
export function shopForPlan(shop: ShopData, plan: ShopPlan | undefined): ShopData {
  if (!plan) return shop;
  return {
    ...shop,
    periodMonths: plan.months,
    monthlyPayment: plan.price,
    strikethroughPrice: plan.listPrice,
    firstPayment: plan.firstPayment,
    firstCharge: plan.firstCharge,
  };
}

export const $chosenPlan = computed([$shop, $tariff], (shop, tariff) => shop && chosenPlan(shop, tariff));

/**
 * The terms the cabinet purchase block states (DESIGN §13(c)), for the chosen plan,
 * undefined until the shop data is in. `now` is read when a dependency changes (the
 * server clock arriving included), not on every render.
 */
export const $cabinetTerms = computed(
  [$shop, $chosenPlan, $period, $serverClockOffset, $orderTrial],
  (shop, plan, period, offset, order) =>
    shop && shopTerms(shopForPlan(shop, plan), { now: Date.now() + offset, storedPeriod: period, order }),
);

/** A new plan: an earlier order's answer was for another one, so it no longer applies. */
export function choosePlan(months: number): void {
  $orderTrial.set(undefined);
  $tariff.set(String(months));
}
