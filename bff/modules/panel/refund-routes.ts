import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { callerLanguage } from "../../platform/request-language";
import { panelErrors } from "../../platform/schemas";
import { operatorAuth } from "../operators/operator-auth";
import { previewRefund, refundCustomer } from "../payments/refunds/refund";
import { paymentIdsDescription, refundAnswer, refundBody } from "../payments/refunds/refund-model";

/** A refund from the panel: what it would return (any operator), and doing it (administrators). */
export function panelRefundRoutes(context: AppContext) {
  return new Elysia()
    .use(operatorAuth(context))
    .post("/refund/preview", ({ body, request }) => previewRefund(context, body, callerLanguage(request)), {
      // Read-only, and it shows no more than the receipts support staff already see; it
      // lets support tell a customer what a refund would return before asking an admin.
      operator: "support",
      body: refundBody,
      response: { 200: refundAnswer, ...panelErrors },
      detail: {
        summary: "What a refund would return now, without doing it (any operator)",
        description: `The same account rules and list as the refund. ${paymentIdsDescription}`,
      },
    })
    .post(
      "/refund",
      ({ body, operator, request }) =>
        refundCustomer(context, body, {
          id: operator.id,
          ip: context.clientAddress(request),
          language: callerLanguage(request),
        }),
      {
        operator: "admin",
        body: refundBody,
        response: { 200: refundAnswer, ...panelErrors },
        detail: {
          summary: "Refund the current period through the gateway and end access now (administrators)",
          description: `The account is found by uid alone; the e-mail must match it in any letter case. ${paymentIdsDescription} Success false, with nothing changed, when nothing is refundable.`,
        },
      },
    );
}
