import { createHmac } from "node:crypto";
import { apiOf } from "../../helpers/api";
import { makeTestApp, postJson } from "../../helpers/app";

/** A notification as the fake shop received it, decoded, with whether its signature held. */
export type Received = { kind: string; fields: Record<string, string>; isSigned: boolean };

/** The gateway's answer `{Success, Message, Model}`, read as the gateway documents it. */
export type GatewayAnswer = { Success: boolean; Message: string | null; Model?: Record<string, unknown> };

let invoiceCount = 0;
/** An invoice id no other test of the run uses. */
export const freshInvoice = (name: string) => `sbp-${name}-${Date.now()}-${++invoiceCount}`;

/**
 * A test app whose sandbox bank sends its notifications to a fake shop instead of the
 * product: the bank is what these tests are about, and the product's endpoints do not take
 * SBP orders yet. The fake shop keeps each notification and answers code 0, or for a Check
 * the code `checkCode` says.
 */
export async function sbpBank(environment: Record<string, string> = {}) {
  const { app, context } = await makeTestApp(environment);
  const received: Received[] = [];
  const shop = { checkCode: 0 };
  const secret = context.config.cloudPaymentsApiSecret;
  const deliver = context.http.fetch.bind(context.http);
  context.http.fetch = async (request) => {
    if (!request.url.includes("/api/payments/cloudpayments/")) return deliver(request);
    const kind = request.url.split("/").at(-1) ?? "";
    const body = await request.text();
    const signature = createHmac("sha256", secret).update(body).digest("base64");
    received.push({
      kind,
      fields: Object.fromEntries(new URLSearchParams(body)),
      isSigned: request.headers.get("content-hmac") === signature,
    });
    return Response.json({ code: kind === "check" ? shop.checkCode : 0 });
  };
  const sandbox = context.payments.sandbox;
  if (!sandbox) throw new Error("these tests need the embedded sandbox bank");
  const credentials = `Basic ${btoa(`${context.payments.gateway.publicId}:${secret}`)}`;

  /** A call of the gateway's server API, with the shop's Public ID and API secret. */
  async function gatewayCall(path: string, body: unknown, authorization = credentials) {
    const response = await app.handle(
      postJson(`/api/dev/sandbox/cloudpayments${path}`, body, { authorization }),
    );
    return { status: response.status, body: (await response.json()) as GatewayAnswer };
  }

  /** A QR for a new invoice (100 ₽ unless said), as the shop asks for one. */
  async function openQr(fields: Record<string, unknown> = {}, path = "/payments/qr/sbp/link") {
    const request = {
      Amount: 100,
      Currency: "RUB",
      InvoiceId: freshInvoice("qr"),
      AccountId: `account-${freshInvoice("a")}`,
      Description: "Kannt, 1 month",
      Email: "payer@example.com",
      ...fields,
    };
    const answer = await gatewayCall(path, request);
    return { request, answer: answer.body, model: answer.body.Model ?? {}, status: answer.status };
  }

  return {
    app,
    context,
    api: apiOf(app),
    sandbox,
    shop,
    received,
    /** What the fake shop received about an invoice, kind and fields together. */
    notificationsOf: (invoiceId: string): Record<string, string | undefined>[] =>
      received
        .filter(({ fields }) => fields.InvoiceId === invoiceId)
        .map(({ kind, fields }) => ({ ...fields, kind })),
    gatewayCall,
    openQr,
  };
}

/** A receipt of one line for `amount` roubles, paid in full electronically. */
export const receiptFor = (amount: number) => ({
  CloudPayments: {
    CustomerReceipt: {
      Items: [
        { label: "Kannt, 1 month", price: amount, quantity: 1, amount, vat: null, method: 4, object: 4 },
      ],
      taxationSystem: 1,
      email: "payer@example.com",
      amounts: { electronic: amount },
    },
  },
});

/** The card fields no SBP notification or model may carry. */
export const cardFields = ["CardFirstSix", "CardLastFour", "CardExpDate"];
