import type { PaymentProvider } from "../../../../core/payment-methods";
import type { Payments } from "../gateway";
import { cloudPaymentsProvider } from "./cloudpayments";
import type { ProviderClient } from "./provider";

/**
 * The provider a payment or a saved method belongs to: renewals charge where the token is
 * held, refunds and look-ups go where the payment was taken (DESIGN §6). Built from the
 * context's clients at each call, so a context with another gateway charges that one.
 */
export function providerOf(payments: Pick<Payments, "gateway">, name: PaymentProvider): ProviderClient {
  switch (name) {
    case "cloudpayments":
      return cloudPaymentsProvider(payments.gateway);
    case "yookassa":
      // No payment or saved method can name it before its adapter exists.
      throw new Error("no YooKassa shop is configured");
  }
}
