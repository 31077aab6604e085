import { atom } from "nanostores";
import type { Currency } from "../../core/money";
import { type ApiData, api } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { readSession, removeSession, sessionKeys, writeSession } from "../lib/storage-keys";
import { serverNow } from "./server-clock";

export type OrderStatus = ApiData<typeof api.shop.orderStatus.post>;

/** An order paid by SBP, as its screen shows it: the QR (image, or link), the amount and the QR's end. */
export type SbpOrder = {
  invoiceId: string;
  qrUrl: string;
  qrImage: string | null;
  expiresAt: string;
  amount: number;
  currency: Currency;
};

/**
 * The wait for an SBP payment (DESIGN §6: its outcome is known only from the bank's
 * notification, so the screen asks the server). `isCheckFailing`: the last question got no
 * answer (the screen says it keeps trying); `ended`: declined or expired, with the reason.
 */
export type SbpWait =
  | { state: "none" }
  | { state: "waiting"; order: SbpOrder; isCheckFailing?: boolean }
  | { state: "ended"; order: SbpOrder; reason: string };

export const $sbpWait = atom<SbpWait>({ state: "none" });

/** What the purchase does with an outcome that is not SBP's own to tell: paid, or the trial refused. */
export type OnSettled = (status: OrderStatus) => void;

/** Often enough that a phone back from its bank's app sees the outcome at once, no more. */
export const checkEveryMs = 2_000;
/** While the server does not answer, each wait doubles up to this. */
export const slowestCheckMs = 30_000;
/** The bank's Fail for a QR that ended may come a little after its end; then the screen says it ended. */
export const afterEndMs = 60_000;

type Following = {
  order: SbpOrder;
  onSettled: OnSettled;
  delay: number;
  timer?: ReturnType<typeof setTimeout>;
};
let following: Following | undefined;

const isPastEnd = (order: SbpOrder) => !(serverNow() <= Date.parse(order.expiresAt) + afterEndMs);

/** Starts waiting for `order`, kept in this tab so a reload or a return from the bank's app goes on waiting. */
export function followSbpOrder(order: SbpOrder, onSettled: OnSettled): void {
  stopFollowing();
  writeSession(sessionKeys.sbpOrder, JSON.stringify(order));
  following = { order, onSettled, delay: checkEveryMs };
  $sbpWait.set({ state: "waiting", order });
  following.timer = setTimeout(checkSbpOrderNow, checkEveryMs);
}

/**
 * The pay block shows again (a reload, a return from the bank's app in this tab's place):
 * the SBP order it was waiting for, if any and its QR did not end long ago, is asked about at once.
 */
export function resumeSbpOrder(onSettled: OnSettled): void {
  if (following) return;
  let order: SbpOrder | undefined;
  try {
    order = JSON.parse(readSession(sessionKeys.sbpOrder) ?? "null") ?? undefined;
  } catch {
    order = undefined;
  }
  if (!order || isPastEnd(order)) removeSession(sessionKeys.sbpOrder);
  else {
    followSbpOrder(order, onSettled);
    void checkSbpOrderNow();
  }
}

/** The screen is left: no more questions (the order stays kept for a return). */
export function stopFollowing(): void {
  clearTimeout(following?.timer);
  following = undefined;
}

/** The buyer pays another way: the wait and its kept order are forgotten. */
export function abandonSbpOrder(): void {
  stopFollowing();
  removeSession(sessionKeys.sbpOrder);
  $sbpWait.set({ state: "none" });
}

/**
 * Asks what became of the order (each turn of the wait). No answer (the network, a 5xx, an
 * order the server does not know) waits longer each time, until the QR's end bounds it.
 */
export async function checkSbpOrderNow(): Promise<void> {
  const current = following;
  if (!current) return;
  clearTimeout(current.timer);
  let status: OrderStatus | null = null;
  try {
    status = (await api.shop.orderStatus.post({ invoiceId: current.order.invoiceId })).data;
  } catch (error) {
    console.warn("SBP order status unavailable", error);
  }
  // Left, or another order is awaited now: this answer is for nobody.
  if (following !== current) return;
  const { order } = current;
  let ending: string | undefined;
  if (status?.trialRefused || (status && status.status !== "pending")) {
    // The server words a decline or an expiry in the customer's language (`order.*` stay on the server).
    if (!status.trialRefused && (status.status === "declined" || status.status === "expired"))
      ending = status.reason ?? translate("purchase.sbpEnded");
    else {
      abandonSbpOrder();
      return current.onSettled(status);
    }
  } else if (isPastEnd(order)) {
    // The server says `expired` once the QR ends; this bounds a wait it never ends (or cannot be asked).
    ending = translate("purchase.sbpEnded");
  }
  if (ending !== undefined) {
    stopFollowing();
    removeSession(sessionKeys.sbpOrder);
    return $sbpWait.set({ state: "ended", order, reason: ending });
  }
  // No answer: each wait doubles, up to the slowest, until one comes.
  current.delay = status ? checkEveryMs : Math.min(current.delay * 2, slowestCheckMs);
  $sbpWait.set({ state: "waiting", order, isCheckFailing: !status });
  current.timer = setTimeout(checkSbpOrderNow, current.delay);
}
