import { toCurrencyUnits } from "../../../../core/money";
import {
  type GatewayAnswer,
  GatewayBusyError,
  type GatewayClient,
  type GatewayTransaction,
} from "../../../adapters/cloudpayments/client";
import { type ChargeOutcome, ProviderBusyError, type ProviderClient } from "./provider";

/**
 * Statuses of a transaction the payer's bank has not decided yet: an SBP autopay charge
 * answers "Pending" and settles by its Pay or Fail; 3-D Secure waits in
 * "AwaitingAuthentication"; "Authorized" holds the money without having taken it. None is a
 * refusal: dunning it would charge again what may still be paid.
 */
const undecidedStatuses = new Set(["Pending", "AwaitingAuthentication", "Authorized"]);

/**
 * A transaction's outcome as CloudPayments states it: only `Model.Status` tells (DESIGN §6),
 * never `Success`, which is false for an undecided charge as for a refused one. A charge
 * without a model was refused before it became a transaction; its words are the answer's
 * `Message`.
 */
export function outcomeOf(
  answer: GatewayAnswer<GatewayTransaction>,
  fallbackReason: string | null,
): ChargeOutcome {
  const model = answer.Model;
  if (model?.Status === "Completed") return { status: "paid", transactionId: String(model.TransactionId) };
  if (model && undecidedStatuses.has(model.Status))
    return { status: "pending", transactionId: String(model.TransactionId) };
  return {
    status: "declined",
    transactionId: model ? String(model.TransactionId) : null,
    reasonCode: model?.ReasonCode ?? null,
    reason: model?.Reason ?? fallbackReason,
  };
}

/** A call turned away for the gateway's rate limit, as the interface names it. */
async function busyAware<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof GatewayBusyError) throw new ProviderBusyError(error.message, error.retryAfterMs);
    throw error;
  }
}

/**
 * CloudPayments behind the provider interface: cards, charged by token. The gateway client is
 * read at each call, so a context whose `gateway` is another (a test's, a shared bank's) is
 * the one charged.
 */
export function cloudPaymentsProvider(gateway: GatewayClient): ProviderClient {
  return {
    name: "cloudpayments",
    methods: ["card"],
    async chargeSaved(charge, receipt) {
      const answer = await busyAware(() =>
        gateway.chargeToken(
          {
            Amount: toCurrencyUnits(charge.amount),
            Currency: charge.currency,
            AccountId: charge.accountId,
            Token: charge.token,
            InvoiceId: charge.invoiceId,
            Description: charge.description,
          },
          receipt,
        ),
      );
      // A refused charge's words are the model's reason, or the answer's message without one.
      return outcomeOf(answer, answer.Message);
    },
    async refund(payment, amount, receipt) {
      const answer = await gateway.refund(payment.transactionId, toCurrencyUnits(amount), receipt);
      if (!answer.Success) return { isRefunded: false, reason: answer.Message };
      return {
        isRefunded: true,
        // A card's refund is done when the gateway answers Success; an SBP payment's is a
        // transfer the payer's bank makes later, done only when the Refund notification comes.
        isSettled: payment.method !== "sbp",
        refundTransactionId: answer.Model ? String(answer.Model.TransactionId) : null,
      };
    },
    async find(invoiceId) {
      const found = await gateway.find(invoiceId);
      // A look-up's message says only whether it found the invoice: no reason of the charge.
      return found.Success && found.Model ? outcomeOf(found, null) : null;
    },
  };
}
