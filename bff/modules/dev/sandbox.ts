import { timingSafeEqual } from "node:crypto";
import { t } from "elysia";
import { toMinorUnits } from "../../../core/money";
import { createSlowAnswers } from "../../adapters/sandbox/answer-delay";
import { parseExpiry } from "../../adapters/sandbox/card-book";
import type { SandboxGateway } from "../../adapters/sandbox/gateway";
import type { AppContext } from "../../context";
import { demoOnly } from "../../platform/demo-only";
import { AppError } from "../../platform/errors";
import { answerInEnglish } from "../../platform/request-language";
import { pathOf } from "../../platform/url-path";
import { sandboxWidgetScript } from "./sandbox-widget";

function requireSandbox(context: Pick<AppContext, "payments">): SandboxGateway {
  const sandbox = context.payments.sandbox;
  if (!sandbox) throw new AppError("not_found");
  return sandbox;
}

/** The gateway API checks HTTP Basic (Public ID : API secret) like the real one. */
function requireBasicAuth(context: Pick<AppContext, "config" | "payments">, request: Request): void {
  const expected = Buffer.from(
    `Basic ${Buffer.from(`${context.payments.gateway.publicId}:${context.config.cloudPaymentsApiSecret}`).toString("base64")}`,
  );
  const given = Buffer.from(request.headers.get("authorization") ?? "");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new AppError("gateway_credentials_wrong");
  }
}

/**
 * `JsonData`, as an object or as JSON text (client libraries send either); the sandbox
 * reads the receipt in it and refuses one that does not add up.
 */
const jsonData = t.Optional(t.Union([t.String(), t.Object({}, { additionalProperties: true })]));

/**
 * The sandbox gateway's HTTP API at /api/dev/sandbox/cloudpayments, the same shapes as the
 * real one, answering as slowly as SANDBOX_LATENCY_MS and SANDBOX_JITTER_MS say; the product's
 * own calls reach it through the loopback (http-client.ts), so they wait as well.
 */
export function sandboxGatewayModule(context: Pick<AppContext, "config" | "payments" | "stopping">) {
  const api = demoOnly(context, "/dev/sandbox/cloudpayments");
  const slowly = createSlowAnswers(
    { latencyMs: context.config.sandboxLatencyMs, jitterMs: context.config.sandboxJitterMs },
    context.stopping,
  );
  const guarded =
    <Body>(handler: (sandbox: SandboxGateway, body: Body) => unknown) =>
    ({ request, body }: { request: Request; body: Body }) => {
      // The gateway's client is a program, as the real gateway's is: it reads English.
      answerInEnglish(request);
      const sandbox = requireSandbox(context);
      return slowly(() => {
        requireBasicAuth(context, request);
        return handler(sandbox, body);
      });
    };
  return (
    api
      .post(
        "/payments/tokens/charge",
        // The request's shape is the sandbox's own: one definition for the route and the bank.
        guarded((sandbox, body: Parameters<SandboxGateway["chargeToken"]>[0]) => sandbox.chargeToken(body)),
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
          detail: { summary: "SANDBOX: charge a saved card" },
        },
      )
      .post(
        "/payments/refund",
        guarded((sandbox, body: { TransactionId: number; Amount: number; JsonData?: unknown }) =>
          sandbox.refund(body),
        ),
        {
          body: t.Object({ TransactionId: t.Number(), Amount: t.Number(), JsonData: jsonData }),
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
            "Each with its receipt (the CustomerReceipt it carried, or null) and its time on the test clock.",
        },
      })
  );
}
