import { atom } from "nanostores";
import type { Currency } from "../../core/money";
import { payerPhoneOf } from "../../core/payer-phone";
import type { PaymentMethod } from "../../core/payment-methods";
import { api } from "../lib/api-client";

/**
 * How the purchase on screen can be paid, as the server offers it for its currency
 * (GET /api/payments/settings): the card always, "СБП" where the server takes it (DESIGN §6),
 * and whether SBP then needs the payer's phone. Undefined until asked: the card alone shows.
 */
export type PaymentOffer = { currency: Currency; methods: PaymentMethod[]; isPhoneNeeded: boolean };
export const $paymentOffer = atom<PaymentOffer | undefined>();

/**
 * The buyer's choice: the method, whether SBP may be charged again for renewals (autopay,
 * ticked by default as a card is saved), the phone as typed, and whether to say what is
 * wrong with it (after a pay attempt, not while it is being typed).
 */
export type PaymentChoice = {
  method: PaymentMethod;
  saveMethod: boolean;
  phone: string;
  isPhoneChecked?: boolean;
};
export const $paymentChoice = atom<PaymentChoice>({ method: "card", saveMethod: true, phone: "" });

/** The method the pay button uses: the one chosen, if the purchase on screen is offered it. */
export const chosenMethod = (offer = $paymentOffer.get(), choice = $paymentChoice.get()): PaymentMethod =>
  offer?.methods.includes(choice.method) ? choice.method : "card";

/** SBP needs a phone here and the one typed is not +7 and 10 digits. */
export const isPhoneMissing = (offer = $paymentOffer.get(), choice = $paymentChoice.get()): boolean =>
  chosenMethod(offer, choice) === "sbp" && offer?.isPhoneNeeded === true && !payerPhoneOf(choice.phone);

let askedFor: Currency | undefined;

/**
 * Asks once per currency what the purchase can be paid by (a language switch on /instantPay
 * turns roubles into tenge). A failure leaves the card alone, which always works, and the
 * next screen that asks tries again.
 */
export async function loadPaymentOffer(currency: Currency): Promise<void> {
  if (askedFor === currency) return;
  askedFor = currency;
  let settings: { methods: PaymentMethod[]; sbpNeedsPhone: boolean } | null = null;
  try {
    settings = (await api.payments.settings.get({ query: { currency } })).data;
  } catch (error) {
    console.warn("payment methods unavailable", error);
  }
  // A later question (another currency) has the last word.
  if (askedFor !== currency) return;
  if (!settings) askedFor = undefined;
  $paymentOffer.set({
    currency,
    methods: settings?.methods ?? ["card"],
    isPhoneNeeded: settings?.sbpNeedsPhone === true,
  });
}

/** Changes the choice: `{method}`, `{saveMethod}`, `{phone}` as typed, or `{isPhoneChecked}` at a pay attempt. */
export function choosePayment(change: Partial<PaymentChoice>): void {
  $paymentChoice.set({ ...$paymentChoice.get(), ...change });
}

/** What the order says about how it is paid: nothing more for a card, the SBP choice for SBP. */
export function orderPayment(): { method: "sbp"; saveMethod: boolean; payerPhone?: string } | undefined {
  if (chosenMethod() !== "sbp") return undefined;
  const { saveMethod, phone } = $paymentChoice.get();
  const payerPhone = $paymentOffer.get()?.isPhoneNeeded ? payerPhoneOf(phone) : undefined;
  return { method: "sbp", saveMethod, ...(payerPhone ? { payerPhone } : {}) };
}
