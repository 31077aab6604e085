import { computed } from "nanostores";
import { shopTerms } from "../lib/charge-terms";
import { $shop } from "./cabinet";
import { $period } from "./customer";
import { $orderTrial } from "./payment";
import { $serverClockOffset } from "./server-clock";

/**
 * The terms the cabinet purchase block states (DESIGN §13(c)), undefined until the shop
 * data is in. `now` is read when a dependency changes (the server clock arriving
 * included), not on every render.
 */
export const $cabinetTerms = computed(
  [$shop, $period, $serverClockOffset, $orderTrial],
  (shop, period, offset, order) =>
    shop && shopTerms(shop, { now: Date.now() + offset, storedPeriod: period, order }),
);
