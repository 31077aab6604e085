import { atom } from "nanostores";
import { toMinorUnits } from "../../core/money";
import { track } from "../lib/analytics";
import { api, errorMessage } from "../lib/api-client";
import type { OrderTrial } from "../lib/charge-terms";
import { translate } from "../lib/i18n/runtime";
import { generatePaymentId } from "../lib/payment-id";
import { readStorage, removeStorage, storageKeys, writeStorage } from "../lib/storage-keys";
import { queueToastForNextPage, showToast } from "../lib/toast/toast-store";
import { $email, $uid } from "./customer";
import { choosePayment, isPhoneMissing, orderPayment } from "./payment-methods";
import {
  $sbpWait,
  abandonSbpOrder,
  followSbpOrder,
  type OrderStatus,
  resumeSbpOrder,
  type SbpOrder,
} from "./sbp-payment";

type WidgetCallbacks = {
  onSuccess?: (options: unknown) => void;
  onFail?: (reason: string, options: unknown) => void;
};
type Widget = { pay(kind: "charge", options: Record<string, unknown>, callbacks: WidgetCallbacks): void };
type WidgetWindow = Window & { cp?: { CloudPayments: new () => Widget } };

export const $purchase = atom<{ state: "idle" | "working" | "failed" | "changed"; message?: string }>({
  state: "idle",
});

/** The last order was declined (or its widget closed, or its QR ended): an anonymous buyer's next order needs a new payment id. */
let isOrderSpent = false;

/** Set when an order answered other terms than the screen showed; the screen then shows those. */
export const $orderTrial = atom<OrderTrial | undefined>();

let widgetScript: Promise<void> | undefined;

/** The gateway's widget script (the sandbox's stand-in in demo mode), loaded once. */
function loadWidget(url: string): Promise<void> {
  widgetScript ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      widgetScript = undefined;
      reject(new Error("payment widget did not load"));
    };
    document.head.append(script);
  });
  return widgetScript;
}

/** The anonymous buyer's payment id, created once and kept as `userID`. */
export async function prepaidToken(): Promise<string> {
  const existing = readStorage(storageKeys.userId);
  if (existing) return existing;
  const created = await generatePaymentId(
    readStorage(storageKeys.rawPeriod),
    readStorage(storageKeys.rawTariff),
  );
  writeStorage(storageKeys.userId, created);
  return created;
}

/**
 * The widget's reason is the gateway's own text, in English or Russian whatever the
 * customer reads; it goes to the console, and the customer gets their language.
 */
function declineMessage(reason: string): string {
  console.warn("payment declined:", reason);
  if (/cancel/i.test(reason)) return translate("purchase.widgetClosed");
  if (/insufficient/i.test(reason)) return translate("purchase.declinedFunds");
  if (/expired/i.test(reason)) return translate("purchase.declinedExpired");
  if (/invalidcard|cardnumber/i.test(reason)) return translate("purchase.declinedNumber");
  return translate("purchase.declinedGeneric");
}

function fail(message: string): void {
  $purchase.set({ state: "failed", message });
  showToast(message, "error");
}

/**
 * Whether the trial was refused for this order (its card or its customer had one, DESIGN
 * §13): the widget only says "declined" or "paid", so the screen asks the server.
 */
async function trialRefusalOf(invoiceId: string): Promise<OrderStatus | undefined> {
  try {
    const { data } = await api.shop.orderStatus.post({ invoiceId });
    return data ?? undefined;
  } catch (error) {
    console.warn("order status unavailable", error);
    return undefined;
  }
}

/**
 * The trial was refused: the screen takes the plan at its price, with the reason, and the
 * pay button orders that (`fullPrice`) once the buyer has read and agreed to it.
 */
function offerFullPrice(status: OrderStatus): boolean {
  if (!status.trialRefused || !status.fullPrice) return false;
  $orderTrial.set({
    hasTrial: false,
    amount: status.fullPrice.amount,
    ...(status.reason ? { reason: status.reason } : {}),
    isFullPriceAsked: true,
  });
  $purchase.set({ state: "changed", message: translate("purchase.termsChanged") });
  return true;
}

/**
 * The order's answer against what the screen promised. The server decides the amount
 * (a customer or card that had the trial pays the full price, DESIGN §13); when it
 * differs from the amount on the pay button, the widget must not open with it: the
 * screen takes the order's terms and reason, and the buyer confirms them first.
 */
function contradictsScreen(
  order: { amount: number; trial?: unknown; reason?: unknown },
  expectedAmount: number,
): OrderTrial | undefined {
  if (toMinorUnits(order.amount) === toMinorUnits(expectedAmount)) return undefined;
  return {
    hasTrial: typeof order.trial === "boolean" ? order.trial : order.amount < expectedAmount,
    amount: order.amount,
    ...(typeof order.reason === "string" && order.reason ? { reason: order.reason } : {}),
  };
}

/**
 * Spec §4 "Payment": paid, so `payment=completed` is stored and the buyer goes to
 * /instantLogin when no e-mail is stored (that screen says the payment went through and
 * asks to sign in), else the page reloads with a toast saying it did.
 */
function completePurchase(): void {
  track("purchase_completed");
  writeStorage(storageKeys.payment, "completed");
  $purchase.set({ state: "idle" });
  if (!$email.get()) location.assign("/instantLogin");
  else {
    queueToastForNextPage(translate("purchase.paidToast"), "success");
    location.reload();
  }
}

/** An SBP order's outcome that is the purchase's to act on: paid as the widget's, or the trial refused. */
function settleSbpOrder(status: OrderStatus): void {
  if (offerFullPrice(status)) return;
  if (status.status === "completed") completePurchase();
  // Taken and given back for a reason this screen has no words for: nothing was bought.
  else fail(translate("purchase.orderFailed"));
}

/** The SBP order this tab was waiting for when the page was left (a reload, the bank's app in its place). */
export const resumeSbpPurchase = () => resumeSbpOrder(settleSbpOrder);

/** The buyer leaves the SBP wait (or its end) to pay by card: back to the pay button. */
export function payAnotherWay(): void {
  // A QR declined or ended spent its order, as a declined card does.
  isOrderSpent ||= $sbpWait.get().state === "ended";
  choosePayment({ method: "card" });
  abandonSbpOrder();
  $purchase.set({ state: "idle" });
}

/**
 * Spec §2/§4 "Payment": the server decides the order, the widget takes the card; on
 * success `payment=completed` is stored and the buyer goes to /instantLogin when no
 * e-mail is stored, else the page reloads. By SBP (DESIGN §6) the order answers a QR
 * instead, and the screen waits for the bank's outcome (stores/sbp-payment.ts).
 */
export async function startPurchase(choice: {
  tariff: number;
  period: number;
  /** The amount the pay button named, in currency units. */
  expectedAmount: number;
  anonymous?: boolean;
}): Promise<void> {
  // SBP on a terminal that needs the payer's phone: the field says what is missing first.
  if (isPhoneMissing()) return choosePayment({ isPhoneChecked: true });
  $purchase.set({ state: "working" });
  try {
    const payBy = orderPayment() ?? {};
    const isAnonymous = choice.anonymous || !$email.get();
    // The plan at its price, asked for after the trial was refused for this card.
    const isFullPriceAsked = $orderTrial.get()?.isFullPriceAsked === true;
    const fullPrice = isFullPriceAsked ? { fullPrice: true } : {};
    // An anonymous order's payment id is spent once that order was declined, ended unpaid
    // (an SBP QR) or had its trial refused (declined, or paid and refunded): the server takes
    // no second order for it, so the next order gets a new one.
    const isSpent = isFullPriceAsked || isOrderSpent || $sbpWait.get().state === "ended";
    isOrderSpent = false;
    if (isAnonymous && isSpent && readStorage(storageKeys.payment) !== "completed")
      removeStorage(storageKeys.userId);
    const { data: answer, error } = isAnonymous
      ? await api.shop.order.post({
          prepaidToken: await prepaidToken(),
          tariff: choice.tariff,
          period: choice.period,
          ...fullPrice,
          ...payBy,
        })
      : await api.shop.order.post({
          email: $email.get(),
          uid: $uid.get(),
          tariff: choice.tariff,
          period: choice.period,
          ...fullPrice,
          ...payBy,
        });
    if (!answer) {
      fail(errorMessage(error) ?? translate("purchase.orderFailed"));
      return;
    }
    // `trial` and `reason` describe the order for this screen; the widget gets the rest.
    const { trial, reason, sbp, ...options } = answer as typeof answer & {
      trial?: unknown;
      reason?: unknown;
    };
    const contradiction = contradictsScreen({ amount: options.amount, trial, reason }, choice.expectedAmount);
    if (contradiction) {
      $orderTrial.set(contradiction);
      $purchase.set({ state: "changed", message: translate("purchase.termsChanged") });
      return;
    }
    // The operator's routes sent it to a provider whose own page takes the card (YooKassa).
    if (options.confirmationUrl) return location.assign(options.confirmationUrl);
    if (sbp) {
      track("purchase_started");
      const { invoiceId, amount, currency } = options;
      followSbpOrder({ ...sbp, invoiceId, amount, currency } satisfies SbpOrder, settleSbpOrder);
      $purchase.set({ state: "idle" });
      return;
    }
    const { data: settings } = await api.payments.settings.get();
    if (!settings) throw new Error("payment settings unavailable");
    await loadWidget(settings.widgetScriptUrl);
    const Widget = (window as WidgetWindow).cp?.CloudPayments;
    if (!Widget) throw new Error("payment widget missing");
    track("purchase_started");
    new Widget().pay(
      "charge",
      { ...options, skin: "mini", requireEmail: false },
      {
        onSuccess: async () => {
          // Paid, yet the trial may have been refused at Pay (the card had one): then it is refunded.
          const status = await trialRefusalOf(options.invoiceId);
          if (status && offerFullPrice(status)) return;
          completePurchase();
        },
        onFail: async (declineReason) => {
          // Check's refusal reads as any decline in the widget; the server says why.
          const status = await trialRefusalOf(options.invoiceId);
          if (status && offerFullPrice(status)) return;
          isOrderSpent = true;
          fail(declineMessage(String(declineReason ?? "")));
        },
      },
    );
  } catch (error) {
    console.error("purchase failed", error);
    fail(translate("purchase.orderFailed"));
  }
}

/** Back to the trial's terms after a card was refused one: the next card may not have had it. */
export function tryAnotherCard(): void {
  $orderTrial.set(undefined);
  $purchase.set({ state: "idle" });
}

/** /mobileShop loads the widget script up front (spec §2), so paying opens at once. */
export async function preloadPaymentWidget(): Promise<void> {
  try {
    const { data } = await api.payments.settings.get();
    if (data) await loadWidget(data.widgetScriptUrl);
  } catch (error) {
    console.error("payment widget preload failed", error);
  }
}
