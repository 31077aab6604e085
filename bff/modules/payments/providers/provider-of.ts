import type { PaymentProvider } from "../../../../core/payment-methods";
import type { Payments } from "../gateway";
import { recordedCall } from "../routing/provider-health";
import { cloudPaymentsProvider } from "./cloudpayments";
import { ProviderBusyError, type ProviderClient } from "./provider";
import { yooKassaProvider } from "./yookassa";

/** A 429 is the provider answering (working, and asking to wait), not failing. */
const isBusyAnswer = (error: unknown) => error instanceof ProviderBusyError;

/**
 * The provider as the product calls it: every call's outcome goes to the provider's health,
 * which decides whether new purchases skip it (DESIGN §6, choice and failover).
 */
function healthRecorded(client: ProviderClient, health: Payments["health"]): ProviderClient {
  const recorded = <T>(call: () => Promise<T>) => recordedCall(health, client.name, call, isBusyAnswer);
  const start = client.startPayment?.bind(client);
  return {
    name: client.name,
    methods: client.methods,
    chargeSaved: (charge, receipt) => recorded(() => client.chargeSaved(charge, receipt)),
    refund: (payment, amount, receipt) => recorded(() => client.refund(payment, amount, receipt)),
    find: (invoiceId) => recorded(() => client.find(invoiceId)),
    ...(start
      ? { startPayment: (order, options, receipt) => recorded(() => start(order, options, receipt)) }
      : {}),
  };
}

/**
 * The provider a payment or a saved method belongs to: renewals charge where the token is
 * held, refunds and look-ups go where the payment was taken (DESIGN §6). Built from the
 * context's clients at each call, so a context with another gateway charges that one.
 */
export function providerOf(
  payments: Pick<Payments, "gateway" | "health"> & Partial<Pick<Payments, "yookassa">>,
  name: PaymentProvider,
): ProviderClient {
  switch (name) {
    case "cloudpayments":
      return healthRecorded(cloudPaymentsProvider(payments.gateway), payments.health);
    case "yookassa":
      // A payment or saved method of YooKassa's on a server no longer configured for it:
      // its charge, refund or look-up fails (and is retried) until the shop is configured again.
      if (!payments.yookassa)
        throw new Error("this payment is YooKassa's, and no YooKassa shop is configured (YOOKASSA_SHOP_ID)");
      return healthRecorded(yooKassaProvider(payments.yookassa), payments.health);
  }
}
