import { t } from "elysia";
import { toMinorUnits } from "../../../core/money";
import { parseExpiry } from "../../adapters/sandbox/card-book";
import type { SandboxGateway } from "../../adapters/sandbox/gateway";
import type { AppContext } from "../../context";
import { demoOnly } from "../../platform/demo-only";
import { AppError } from "../../platform/errors";
import { pathOf } from "../../platform/url-path";
import { gatewayGuard, jsonData, requireSandbox } from "./sandbox-gateway-guard";
import { refuseWhileDown, sandboxOutageRoutes } from "./sandbox-outage";
import { sbpControlRoutes, sbpGatewayRoutes } from "./sandbox-sbp";
import { sandboxWidgetScript } from "./sandbox-widget";

/**
 * The sandbox gateway's HTTP API at /api/dev/sandbox/cloudpayments, the same shapes as the
 * real one, answering as slowly as SANDBOX_LATENCY_MS and SANDBOX_JITTER_MS say; the product's
 * own calls reach it through the loopback (http-client.ts), so they wait as well.
 */
export function sandboxGatewayModule(context: Pick<AppContext, "config" | "payments" | "stopping">) {
  const api = demoOnly(context, "/dev/sandbox/cloudpayments");
  const guarded = gatewayGuard(context);
  return (
    api
      .post(
        "/payments/tokens/charge",
        // The request's shape is the sandbox's own: one definition for the route and the bank.
        guarded((sandbox, body: Parameters<SandboxGateway["chargeToken"]>[0], answered) =>
          sandbox.chargeToken(body, answered),
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
            JsonData: jsonData,
          }),
          detail: {
            summary: "SANDBOX: charge a saved card or SBP autopay binding",
            description:
              'An SBP binding\'s charge answers Success false, Message "Pending", Model.Status "Pending"; its outcome comes later by Pay or Fail (or, for a silent bank, only by look-up).',
          },
        },
      )
      .post(
        "/payments/refund",
        guarded((sandbox, body: { TransactionId: number; Amount: number; JsonData?: unknown }, answered) =>
          sandbox.refund(body, answered),
        ),
        {
          body: t.Object({ TransactionId: t.Number(), Amount: t.Number(), JsonData: jsonData }),
          detail: {
            summary: "SANDBOX: refund",
            description:
              "A card payment's refund is done and notified before the answer; an SBP payment's is accepted by the answer (Success true, Model.Status Pending) and done, with its Refund notification, a moment after it.",
          },
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
      // The older path, which answers the same and which existing client libraries call.
      .post(
        "/payments/find",
        guarded((sandbox, body: { InvoiceId: string }) => sandbox.find(body.InvoiceId)),
        {
          body: t.Object({ InvoiceId: t.String() }),
          detail: { summary: "SANDBOX: look a payment up by invoice (the older path)" },
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
      .post(
        "/orders/register",
        guarded((sandbox, body: Parameters<SandboxGateway["registerApiOrder"]>[0]) =>
          sandbox.registerApiOrder(body),
        ),
        {
          body: t.Object({
            InvoiceId: t.String({ maxLength: 128 }),
            Amount: t.Number({ minimum: 0 }),
            Currency: t.String(),
            AccountId: t.String({ maxLength: 256 }),
            Description: t.String({ maxLength: 512 }),
            Email: t.Optional(t.String({ maxLength: 320 })),
            JsonData: jsonData,
          }),
          detail: {
            summary: "SANDBOX: register the order a widget is about to be opened for",
            description:
              "The sandbox's own call (the real gateway has none): a demo instance whose bank is this sandbox registers its orders here, and its pages load this sandbox's widget.",
          },
        },
      )
      .get(
        "/widget.js",
        () =>
          new Response(sandboxWidgetScript, {
            headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" },
          }),
        { detail: { summary: "SANDBOX: a cp.CloudPayments-compatible widget with the test cards" } },
      )
      .use(sbpGatewayRoutes(context, guarded))
  );
}

/**
 * The widget of a demo instance that shares this one's bank is served from here but runs
 * on that instance's pages: its "Pay" is a cross-origin call, which the browser lets it
 * make (and read) only with these headers. No cookie is involved, and anyone can already
 * call this endpoint of a demo directly.
 */
const widgetCors = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST",
  "access-control-allow-headers": "content-type",
};

/** Drives the sandbox without a browser, and shows its ledger (DESIGN §11). */
export function sandboxControlModule(context: Pick<AppContext, "config" | "payments">) {
  return (
    demoOnly(context, "/dev/sandbox")
      // The browser's preflight of that call: answered before routing, as it is no API call
      // of its own (and no API document lists one).
      .onRequest(({ request }) => {
        if (request.method === "OPTIONS" && pathOf(request.url) === "/api/dev/sandbox/pay")
          return new Response(null, { status: 204, headers: widgetCors });
      })
      .post(
        "/pay",
        async ({ body, set }) => {
          // Set first: the refusals below keep them, so the widget can read those too.
          Object.assign(set.headers, widgetCors);
          const sandbox = requireSandbox(context);
          refuseWhileDown(sandbox.outage, "cloudpayments");
          const expiry = body.expiry === undefined ? undefined : parseExpiry(body.expiry);
          if (body.expiry !== undefined && expiry === undefined)
            throw new AppError("invalid_card_expiry", { expiry: body.expiry });
          return sandbox.payWithCard({
            invoiceId: body.invoiceId,
            cardNumber: body.cardNumber,
            expiry,
            amount: body.amount === undefined ? undefined : toMinorUnits(body.amount),
            data: body.data,
          });
        },
        {
          body: t.Object({
            invoiceId: t.String({ maxLength: 128 }),
            cardNumber: t.String({ maxLength: 32 }),
            expiry: t.Optional(t.String({ maxLength: 16 })),
            amount: t.Optional(t.Number({ minimum: 0 })),
            data: t.Optional(t.Object({}, { additionalProperties: true })),
          }),
          detail: {
            summary: "SANDBOX: pay an order with a test card, exactly as the widget would",
            description:
              "The same number and expiry (MM/YY) are the same card (one token); without an expiry the payment is made with a card of its own. `data` is the widget's data (the order's when absent).",
          },
        },
      )
      .get("/ledger", ({ query }) => requireSandbox(context).entries(query.accountId), {
        query: t.Object({ accountId: t.Optional(t.String({ maxLength: 256 })) }),
        detail: {
          summary: "SANDBOX: every charge and refund the sandbox bank made",
          description:
            "Each with its method (card or sbp), its receipt (the CustomerReceipt it carried, or null) and its time on the test clock.",
        },
      })
      .use(sbpControlRoutes(context))
      .use(sandboxOutageRoutes(context))
  );
}
