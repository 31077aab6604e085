import type { PaymentMethod, PaymentProvider } from "../../../core/payment-methods";
import type { TranslationKey } from "../../lib/i18n/runtime";

/**
 * A route's name on its own (payments-words.ts has the rest of the Payments screen's words):
 * the receipts page names each payment's route too, and a page loads the words of every key
 * its imports mention (src/build/screen-keys.ts), so it imports this and not the audit's words.
 */
export type T = (key: TranslationKey, values?: Record<string, string | number>) => string;

/** The providers' names as the operator's language writes them (ЮKassa in Russian and Kazakh). */
export const providerKeys = {
  cloudpayments: "panel.paymentsCloudpayments",
  yookassa: "panel.paymentsYookassa",
} as const satisfies Record<PaymentProvider, TranslationKey>;

export const methodKeys = {
  card: "panel.paymentsMethodCard",
  sbp: "panel.paymentsMethodSbp",
} as const satisfies Record<PaymentMethod, TranslationKey>;

/** "CloudPayments (SBP)": how the Payments screen, the audit log and the receipts name one route. */
export const routeName = (t: T, route: { provider: PaymentProvider; method: PaymentMethod }) =>
  t("panel.paymentsRouteName", {
    provider: t(providerKeys[route.provider]),
    method: t(methodKeys[route.method]),
  });
