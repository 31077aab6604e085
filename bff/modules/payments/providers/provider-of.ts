import type { PaymentProvider } from "../../../../core/payment-methods";
import type { Payments } from "../gateway";
import { recordedCall } from "../routing/provider-health";
import { cloudPaymentsProvider } from "./cloudpayments";
import { ProviderBusyError, type ProviderClient } from "./provider";

/** A 429 is the provider answering (working, and asking to wait), not failing. */
const isBusyAnswer = (error: unknown) => error instanceof ProviderBusyError;

/**
 * The provider as the product calls it: every call's outcome goes to the provider's health,
 * which decides whether new purchases skip it (DESIGN §6, choice and failover).
 */
function healthRecorded(client: ProviderClient, health: Payments["health"]): ProviderClient {
  const recorded = <T>(call: () => Promise<T>) => recordedCall(health, client.name, call, isBusyAnswer);
  return {
    name: client.name,
    methods: client.methods,
    chargeSaved: (charge, receipt) => recorded(() => client.chargeSaved(charge, receipt)),
    refund: (transactionId, amount, receipt) => recorded(() => client.refund(transactionId, amount, receipt)),
    find: (invoiceId) => recorded(() => client.find(invoiceId)),
  };
}

/**
 * The provider a payment or a saved method belongs to: renewals charge where the token is
 * held, refunds and look-ups go where the payment was taken (DESIGN §6). Built from the
 * context's clients at each call, so a context with another gateway charges that one.
 */
export function providerOf(
  payments: Pick<Payments, "gateway" | "health">,
  name: PaymentProvider,
): ProviderClient {
  switch (name) {
    case "cloudpayments":
      return healthRecorded(cloudPaymentsProvider(payments.gateway), payments.health);
    case "yookassa":
      // No payment or saved method can name it before its adapter exists.
      throw new Error("no YooKassa shop is configured");
  }
}
