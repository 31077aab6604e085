import type { PaymentProvider } from "../../../../core/payment-methods";
import type { Payments } from "../gateway";
import { cloudPaymentsProvider } from "./cloudpayments";
import type { ProviderClient } from "./provider";
import { yooKassaProvider } from "./yookassa";

/**
 * The provider a payment or a saved method belongs to: renewals charge where the token is
 * held, refunds and look-ups go where the payment was taken (DESIGN §6). Built from the
 * context's clients at each call, so a context with another gateway charges that one.
 */
export function providerOf(
  payments: Pick<Payments, "gateway"> & Partial<Pick<Payments, "yookassa">>,
  name: PaymentProvider,
): ProviderClient {
  switch (name) {
    case "cloudpayments":
      return cloudPaymentsProvider(payments.gateway);
    case "yookassa":
      // A payment or saved method of YooKassa's on a server no longer configured for it:
      // its charge, refund or look-up fails (and is retried) until the shop is configured again.
      if (!payments.yookassa)
        throw new Error("this payment is YooKassa's, and no YooKassa shop is configured (YOOKASSA_SHOP_ID)");
      return yooKassaProvider(payments.yookassa);
  }
}
