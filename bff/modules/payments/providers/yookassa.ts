import { YooKassaBusyError, YooKassaRefusedError } from "../../../adapters/yookassa/errors";
import { yooKassaReceipt } from "../../../adapters/yookassa/receipt";
import {
  metadataKeys,
  type NewYooKassaPayment,
  type YooKassaPayment,
} from "../../../adapters/yookassa/types";
import type { YooKassaShop } from "../gateway";
import { sbpQrMinutes } from "../orders/sbp-order";
import { type ChargeOutcome, ProviderBusyError, type ProviderClient } from "./provider";
import { bodyDigest, idempotenceKey } from "./provider-requests";
import { outcomeOf } from "./yookassa-outcome";

const money = (minor: number, currency: string) => ({ value: (minor / 100).toFixed(2), currency });

/** YooKassa keeps a key 24 hours; a kept request older than this is not sent again blindly. */
const resendWindowMs = 23 * 60 * 60 * 1000;

/**
 * The payment YooKassa made for our invoice from a request first kept at `keptAt`, found in
 * its list of payments: every send of that request was within `resendWindowMs` of it, and
 * an hour either side allows for the two clocks. Null when it made none.
 */
async function paymentMadeFor(
  client: YooKassaShop["client"],
  invoiceId: string,
  keptAt: number,
): Promise<YooKassaPayment | null> {
  const hourMs = 60 * 60 * 1000;
  let cursor: string | undefined;
  do {
    const page = await client.listPayments(keptAt - hourMs, keptAt + resendWindowMs + hourMs, cursor);
    const made = page.items.find((payment) => payment.metadata?.[metadataKeys.invoiceId] === invoiceId);
    if (made) return made;
    cursor = page.next_cursor;
  } while (cursor);
  return null;
}

/** A call turned away for YooKassa's rate limit, as the interface names it. */
async function busyAware<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof YooKassaBusyError) throw new ProviderBusyError(error.message, error.retryAfterMs);
    throw error;
  }
}

/**
 * YooKassa behind the provider interface (DESIGN §6): cards and SBP, opened on its page or
 * by QR (startPayment), saved methods charged by `payment_method_id`, refunds, and look-ups
 * by the provider's id (its API has no search by our invoice id, which rides in `metadata`).
 * Every POST is kept before it is sent under a key made from our invoice id
 * (provider-requests.ts), so retries and a look-up after a crash send it again unchanged.
 */
export function yooKassaProvider(shop: YooKassaShop): ProviderClient {
  const { client, requests } = shop;
  const sendPayment = (invoiceId: string, key: string, body: NewYooKassaPayment) =>
    busyAware(() =>
      requests.send(
        { key, operation: "payment", invoiceId, body },
        (kept, sentKey) => client.resendPayment(kept, sentKey),
        (payment) => payment.id,
      ),
    );
  return {
    name: "yookassa",
    methods: ["card", "sbp"],

    async chargeSaved(charge, receipt) {
      const body: NewYooKassaPayment = {
        amount: money(charge.amount, charge.currency),
        capture: true,
        payment_method_id: charge.token,
        description: charge.description.slice(0, 128),
        receipt: yooKassaReceipt(receipt, charge.currency),
        metadata: { [metadataKeys.invoiceId]: charge.invoiceId, [metadataKeys.accountId]: charge.accountId },
      };
      try {
        // One key per attempt: its invoice id is the attempt's, committed before the call.
        return outcomeOf(
          await sendPayment(charge.invoiceId, idempotenceKey("payment", charge.invoiceId), body),
        );
      } catch (error) {
        // Refused before anything was made (a method YooKassa no longer holds, say): a decline.
        if (error instanceof YooKassaRefusedError)
          return {
            status: "declined",
            transactionId: null,
            reasonCode: null,
            reason: error.description ?? error.code,
          };
        throw error;
      }
    },

    async refund({ transactionId }, amount, receipt) {
      // The currency is the payment's: read from YooKassa, which also says whether it is refundable.
      const payment = await busyAware(() => client.getPayment(transactionId));
      if (!payment) return { isRefunded: false, reason: "YooKassa has no such payment." };
      const refundReceipt = yooKassaReceipt(receipt, payment.amount.currency);
      // YooKassa sends every receipt somewhere: a payment with no account of ours (an
      // anonymous purchase) has its refund's receipt go where the payment's own went.
      if (!refundReceipt.customer) {
        const paid = (await requests.bodyOf(transactionId)) as NewYooKassaPayment | undefined;
        if (paid?.receipt?.customer) refundReceipt.customer = paid.receipt.customer;
      }
      const body = {
        payment_id: transactionId,
        amount: money(amount, payment.amount.currency),
        receipt: refundReceipt,
      };
      const invoiceId = payment.metadata?.[metadataKeys.invoiceId] ?? transactionId;
      try {
        const refund = await busyAware(() =>
          requests.send(
            // Our refunds give back what is left of a payment: one amount, one refund.
            {
              key: idempotenceKey("refund", transactionId, String(amount)),
              operation: "refund",
              invoiceId,
              body,
            },
            (kept, sentKey) => client.resendRefund(kept, sentKey),
            (made) => made.id,
          ),
        );
        // A refund YooKassa answers still pending is done when refund.succeeded says so.
        return refund.status === "canceled"
          ? { isRefunded: false, reason: refund.cancellation_details?.reason ?? "canceled" }
          : { isRefunded: true, isSettled: refund.status === "succeeded", refundTransactionId: refund.id };
      } catch (error) {
        if (error instanceof YooKassaRefusedError)
          return { isRefunded: false, reason: error.description ?? error.code };
        throw error;
      }
    },

    async find(invoiceId): Promise<ChargeOutcome | null> {
      const kept = await requests.latestPaymentOf(invoiceId);
      // Nothing kept: the request was never sent.
      if (!kept) return null;
      let payment: YooKassaPayment | null;
      if (kept.object_id) {
        const objectId = kept.object_id;
        payment = await busyAware(() => client.getPayment(objectId));
        // YooKassa never forgets a payment it named: not finding it is asking the wrong
        // YooKassa (another instance's sandbox), so the outcome stays unknown.
        if (!payment)
          throw new Error(`YooKassa does not know payment ${objectId}, which it made for ${invoiceId}`);
      } else {
        // Sent, its answer never read: the same request under the same key gives the payment
        // YooKassa made (or makes it now), never a second one, while YooKassa keeps the key.
        // Past YooKassa's 24 hours the key would make a second payment: what it made, if
        // anything, is in its list of payments of the hours the key could be sent in.
        if (requests.now() - kept.created_at > resendWindowMs)
          return busyAware(async () => {
            const made = await paymentMadeFor(client, invoiceId, kept.created_at);
            return made ? outcomeOf(made) : null;
          });
        payment = await busyAware(() =>
          requests.resend(
            kept,
            (body, key) => client.resendPayment(body, key),
            (made) => made.id,
          ),
        );
      }
      return payment ? outcomeOf(payment) : null;
    },

    async startPayment(order, options, receipt) {
      const isSbp = options.method === "sbp";
      const body: NewYooKassaPayment = {
        amount: money(order.amount, order.currency),
        capture: true,
        description: order.description.slice(0, 128),
        payment_method_data: { type: isSbp ? "sbp" : "bank_card" },
        confirmation: isSbp ? { type: "qr" } : { type: "redirect", return_url: options.returnUrl },
        save_payment_method: options.saveMethod,
        receipt: yooKassaReceipt(receipt, order.currency),
        metadata: { [metadataKeys.invoiceId]: order.invoiceId, [metadataKeys.accountId]: order.accountId },
      };
      // An order opened again as it was is the same payment (a double click, a reload); one
      // changed since (another plan, the other method) is a payment of its own.
      const key = idempotenceKey("start", order.invoiceId, bodyDigest(body));
      const payment = await sendPayment(order.invoiceId, key, body);
      const confirmation = payment.confirmation;
      if (confirmation?.type === "qr")
        return {
          kind: "qr",
          providerPaymentId: payment.id,
          qrUrl: confirmation.confirmation_data,
          expiresAt: Date.parse(payment.created_at) + sbpQrMinutes * 60_000,
        };
      if (confirmation?.type === "redirect")
        return {
          kind: "redirect",
          providerPaymentId: payment.id,
          confirmationUrl: confirmation.confirmation_url,
        };
      throw new Error(
        `YooKassa opened payment ${payment.id} (${payment.status}) without a confirmation for the payer`,
      );
    },
  };
}
