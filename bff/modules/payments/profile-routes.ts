import { Elysia, t } from "elysia";
import { paymentMethods } from "../../../core/payment-methods";
import type { AppContext } from "../../context";
import { requestLanguage } from "../../platform/request-language";
import { customerErrors, customerIdentity, errorResponse, oneOf, rowId } from "../../platform/schemas";
import { customerAuth } from "../session/customer-auth";
import { subscriptionStatus } from "../subscriptions/model";
import { removeSavedCard } from "./card-removal";
import { card } from "./model";
import { ownPaidPayment, paymentHistoryOf } from "./receipts/payment-history";
import { receiptPolicy, renderReceipt } from "./receipts/receipt-page";

const historyEntry = t.Object({
  id: t.String(),
  paymentId: t.Number(),
  date: t.String(),
  amount: t.Number({ description: "currency units" }),
  currency: t.Union([t.Literal("RUB"), t.Literal("KZT")]),
  purpose: t.Union([
    t.Literal("trial"),
    t.Literal("first"),
    t.Literal("renewal"),
    t.Literal("device"),
    t.Literal("refund"),
  ]),
  months: t.Nullable(t.Number()),
  trialDays: t.Nullable(t.Number()),
  status: t.Union([
    t.Literal("paid"),
    t.Literal("declined"),
    t.Literal("refunded"),
    // Accepted by the provider, the money not back yet (an SBP payment's refund).
    t.Literal("refund_in_progress"),
    t.Literal("pending"),
  ]),
  receiptUrl: t.Nullable(t.String()),
  // How it was paid; a refund's is its payment's, as the money goes back the same way.
  method: oneOf(paymentMethods),
});

/** The cabinet's payment calls, under /api/profile: the saved card, the history, a receipt. */
export function profilePaymentRoutes(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/profile", tags: ["cabinet"] })
    .use(customerAuth(context))
    .post("/removeCard", ({ customer }) => removeSavedCard(database, customer.id, clock.now()), {
      customer: true,
      body: t.Object(customerIdentity),
      response: {
        200: t.Object({
          success: t.Literal(true),
          subscriptionStatus,
          subscriptionIsActive: t.Boolean(),
          expirationDate: t.Nullable(t.String()),
          card,
        }),
        ...customerErrors,
        409: errorResponse,
      },
      detail: {
        summary:
          "Remove the saved card: the token is deleted, renewals stop, access runs to the end of the paid period",
      },
    })
    .post("/payments", ({ customer }) => paymentHistoryOf(database, customer.id), {
      customer: true,
      body: t.Object(customerIdentity),
      response: {
        200: t.Object({ success: t.Literal(true), payments: t.Array(historyEntry), hasMore: t.Boolean() }),
        ...customerErrors,
      },
      detail: { summary: "The customer's own payments and refunds, newest first (the latest 50)" },
    })
    .get(
      "/payments/:id/receipt",
      async ({ customer, params, request }) =>
        new Response(
          renderReceipt(
            await ownPaidPayment(database, customer.id, params.id),
            customer.email,
            requestLanguage(request),
          ),
          {
            headers: {
              "content-type": "text/html; charset=utf-8",
              "content-security-policy": receiptPolicy,
              "cache-control": "private, no-store",
            },
          },
        ),
      {
        customer: true,
        params: t.Object({ id: rowId }),
        detail: { summary: "The receipt of one of the customer's own payments, as a printable page" },
      },
    );
}
