/**
 * The payment providers and methods the product takes money by (DESIGN §6, "Payment methods
 * and providers"): the same names in the database, the API and the panel.
 */
export const paymentProviders = ["cloudpayments", "yookassa"] as const;
export type PaymentProvider = (typeof paymentProviders)[number];

export const paymentMethods = ["card", "sbp"] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

/** The providers' own names, as an operator reads them in any language. */
export const providerNames: Record<PaymentProvider, string> = {
  cloudpayments: "CloudPayments",
  yookassa: "YooKassa",
};
