import { timingSafeEqual } from "node:crypto";
import { t } from "elysia";
import type { SandboxGateway } from "../../adapters/sandbox/gateway";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { demoOnly } from "./demo-only";
import { sandboxWidgetScript } from "./sandbox-widget";

function requireSandbox(context: AppContext): SandboxGateway {
  const sandbox = context.payments.sandbox;
  if (!sandbox) throw new AppError("NOT_FOUND", "There is no such API endpoint.");
  return sandbox;
}

/** The gateway API checks HTTP Basic (Public ID : API secret) like the real one. */
function requireBasicAuth(context: AppContext, request: Request): void {
  const expected = Buffer.from(
    `Basic ${Buffer.from(`${context.payments.gateway.publicId}:${context.config.cloudPaymentsApiSecret}`).toString("base64")}`,
  );
  const given = Buffer.from(request.headers.get("authorization") ?? "");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new AppError("UNAUTHORIZED", "Wrong Public ID or API secret.");
  }
}

/** The sandbox gateway's HTTP API at /api/dev/sandbox/cloudpayments, the same shapes as the real one. */
export function sandboxGatewayModule(context: AppContext) {
  const api = demoOnly(context, "/dev/sandbox/cloudpayments");
  const guarded =
    <Body>(handler: (sandbox: SandboxGateway, body: Body) => unknown) =>
    ({ request, body }: { request: Request; body: Body }) => {
      const sandbox = requireSandbox(context);
      requireBasicAuth(context, request);
      return handler(sandbox, body);
    };
  return api
    .post(
      "/payments/tokens/charge",
      guarded(
        (
          sandbox,
          body: { Amount: number; Currency: string; AccountId: string; Token: string; InvoiceId: string },
        ) => sandbox.chargeToken(body),
      ),
      {
        body: t.Object({
          Amount: t.Number(),
          Currency: t.String(),
          AccountId: t.String(),
          Token: t.String(),
          InvoiceId: t.String(),
          Description: t.Optional(t.String()),
          TrInitiatorCode: t.Optional(t.Number()),
          PaymentScheduled: t.Optional(t.Number()),
        }),
        detail: { summary: "SANDBOX: charge a saved card" },
      },
    )
    .post(
      "/payments/refund",
      guarded((sandbox, body: { TransactionId: number; Amount: number }) => sandbox.refund(body)),
      {
        body: t.Object({ TransactionId: t.Number(), Amount: t.Number() }),
        detail: { summary: "SANDBOX: refund" },
      },
    )
    .post(
      "/v2/payments/find",
      guarded((sandbox, body: { InvoiceId: string }) => sandbox.find(body.InvoiceId)),
      {
        body: t.Object({ InvoiceId: t.String() }),
        detail: { summary: "SANDBOX: look a payment up by invoice" },
      },
    )
    .post(
      "/payments/list",
      guarded((sandbox, body: { Date: string }) => sandbox.list(body.Date)),
      {
        body: t.Object({
          Date: t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" }),
          TimeZone: t.Optional(t.String()),
        }),
        detail: { summary: "SANDBOX: transactions of a day" },
      },
    )
    .get(
      "/widget.js",
      () =>
        new Response(sandboxWidgetScript, {
          headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" },
        }),
      { detail: { summary: "SANDBOX: a cp.CloudPayments-compatible widget with the test cards" } },
    );
}

/** Drives the sandbox without a browser, and shows its ledger (DESIGN §11). */
export function sandboxControlModule(context: AppContext) {
  return demoOnly(context, "/dev/sandbox")
    .post(
      "/pay",
      async ({ body }) => {
        const result = await requireSandbox(context).payWithCard(
          body.invoiceId,
          body.cardNumber,
          body.amount === undefined ? undefined : Math.round(body.amount * 100),
        );
        return result;
      },
      {
        body: t.Object({
          invoiceId: t.String({ maxLength: 128 }),
          cardNumber: t.String({ maxLength: 32 }),
          amount: t.Optional(t.Number({ minimum: 0 })),
        }),
        detail: { summary: "SANDBOX: pay an order with a test card, exactly as the widget would" },
      },
    )
    .get("/ledger", ({ query }) => requireSandbox(context).entries(query.accountId), {
      query: t.Object({ accountId: t.Optional(t.String({ maxLength: 256 })) }),
      detail: { summary: "SANDBOX: every charge and refund the sandbox bank made" },
    });
}
