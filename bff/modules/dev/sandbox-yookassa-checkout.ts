import { t } from "elysia";
import { checkoutPage } from "../../adapters/yookassa-sandbox/checkout-page";
import type { AppContext } from "../../context";
import { demoOnly } from "../../platform/demo-only";
import { AppError } from "../../platform/errors";
import { refuseWhileDown } from "./sandbox-outage";
import { requireYooKassaSandbox } from "./sandbox-yookassa-guard";

const html = (body: string, status = 200) =>
  new Response(body, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });

const payment = t.Object({
  cardNumber: t.String({ maxLength: 32 }),
  expiry: t.Optional(t.String({ maxLength: 16 })),
});

/**
 * The payer's side of a card payment in the YooKassa sandbox (its confirmation_url): the
 * checkout page, its form's post (which sends the payer back to the shop), and the same
 * payment as JSON for tests, as /api/dev/sandbox/pay is for the CloudPayments widget.
 */
export function checkoutRoutes(context: Pick<AppContext, "config" | "payments">) {
  const pageOf = (paymentId: string, message?: string) => {
    const described = requireYooKassaSandbox(context).describeCheckout(paymentId);
    if (!described) throw new AppError("sandbox_payment_not_found");
    return html(checkoutPage({ paymentId, ...described }, message));
  };
  return demoOnly(context, "/checkout")
    .get("", ({ query }) => pageOf(query.orderId ?? ""), {
      query: t.Object({ orderId: t.Optional(t.String({ maxLength: 64 })) }),
      detail: { summary: "SANDBOX YooKassa: the payment page a redirect confirmation opens" },
    })
    .post(
      "",
      async ({ body }) => {
        const sandbox = requireYooKassaSandbox(context);
        refuseWhileDown(sandbox.outage, "yookassa");
        const expiry = body.expiry?.trim() ? body.expiry : undefined;
        const paid = await sandbox.payByCard({
          paymentId: body.orderId,
          cardNumber: body.cardNumber,
          expiry,
        });
        if (!paid) return pageOf(body.orderId);
        // Paid or declined, the payer goes back to the shop, which asks what became of the order.
        if (paid.returnUrl && paid.status !== "pending")
          return new Response(null, { status: 303, headers: { location: paid.returnUrl } });
        return pageOf(body.orderId, paid.message ?? undefined);
      },
      {
        body: t.Composite([t.Object({ orderId: t.String({ maxLength: 64 }) }), payment]),
        detail: {
          summary: "SANDBOX YooKassa: the payment page's form (form-encoded), then back to the shop",
        },
      },
    )
    .post(
      "/pay",
      async ({ body }) => {
        const sandbox = requireYooKassaSandbox(context);
        refuseWhileDown(sandbox.outage, "yookassa");
        const paid = await sandbox.payByCard(body);
        if (!paid) throw new AppError("sandbox_payment_not_found");
        return paid;
      },
      {
        body: t.Composite([t.Object({ paymentId: t.String({ maxLength: 64 }) }), payment]),
        detail: {
          summary: "SANDBOX YooKassa: pay a payment by card, exactly as its page would",
          description:
            "The test cards of the CloudPayments sandbox; an expiry (MM/YY) names the card, none makes a card of its own. Answers {success, status, message (YooKassa's cancellation reason), returnUrl}.",
        },
      },
    );
}
