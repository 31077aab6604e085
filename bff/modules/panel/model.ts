import { t } from "elysia";
import { paymentMethods, paymentProviders } from "../../../core/payment-methods";
import { oneOf, rowId } from "../../platform/schemas";
import { deliveryRecord } from "../mail/view";

/** A customer named in a query parameter (`id` or `userId`). */
export const userIdQuery = rowId;

/** Where a panel list's page is (bff/platform/paging.ts). */
const pageInfo = t.Object({
  size: t.Number(),
  number: t.Number(),
  totalElements: t.Number(),
  totalPages: t.Number(),
});

/** One page of a customer's messages with how their delivery went. */
export const messagesPage = t.Object({
  content: t.Array(deliveryRecord),
  page: pageInfo,
});

/** One page of a customer's receipts: their payments other than orders never paid. */
export const receiptsPage = t.Object({
  content: t.Array(
    t.Object({
      dateTime: t.String(),
      accountId: t.String({ description: "The customer's e-mail, else the payment's account id" }),
      amount: t.Number({ description: "currency units" }),
      currency: t.String(),
      description: t.String(),
      kind: t.Union([t.Literal("first"), t.Literal("renewal"), t.Literal("device")]),
      ipAddress: t.Nullable(t.String()),
      status: t.String({
        description:
          "COMPLETED, DECLINED, REFUNDED, or REFUND_IN_PROGRESS while the provider has not done it",
      }),
      transactionId: t.Nullable(t.String()),
      subscriptionId: t.Nullable(t.Number()),
      isWarrantyOver: t.Boolean({ description: "More than 14 days since the payment" }),
      // Support looks the transaction up at its provider; the method is how the customer paid.
      provider: oneOf(paymentProviders),
      method: oneOf(paymentMethods),
    }),
  ),
  page: pageInfo,
});
