import { createYooKassaClient, type YooKassaCallPolicy } from "../../bff/adapters/yookassa/client";
import type { YooKassaReceipt } from "../../bff/adapters/yookassa/types";
import type { App } from "../../bff/app";
import type { AppContext } from "../../bff/context";
import { type StartedOrder, startProviderPayment } from "../../bff/modules/payments/orders/provider-order";
import type { PaymentRow } from "../../db/queries/payments";
import type { SubscriptionRow } from "../../db/queries/subscriptions";
import { apiOf, dataOf, identityOf, sessionOf } from "./api";
import { request } from "./app";
import { type SignedIn, signIn } from "./customers";
import { order } from "./payments";

/** The YooKassa sandbox's API base in a test app, reached in-process. */
export const yooKassaBase = "http://localhost/api/dev/sandbox/yookassa";

/** The shop's pair as the test app has it (tests/helpers/app.ts sets it). */
export function shopOf(context: AppContext) {
  return { shopId: context.config.yooKassaShopId, secretKey: context.config.yooKassaSecretKey };
}

export const basicAuth = (shopId: string, secretKey: string) =>
  `Basic ${Buffer.from(`${shopId}:${secretKey}`).toString("base64")}`;

/**
 * The product's own YooKassa client pointed at the test app's sandbox, sending through
 * `app.handle`, with a policy tests can make quick.
 */
export function clientOn(
  app: App,
  pair: { shopId: string; secretKey: string },
  policy: YooKassaCallPolicy = { attempts: 3, firstDelayMs: 10, timeoutMs: 5_000 },
) {
  const http = { fetch: (sent: Request) => app.handle(sent), attachLoopback() {} };
  return createYooKassaClient({ apiUrl: yooKassaBase, ...pair }, http, policy);
}

/**
 * A call as any YooKassa library makes it: plain HTTP, Basic auth, JSON, an
 * Idempotence-Key on a POST. Answers the status and the parsed body.
 */
export async function rawCall(
  app: App,
  pair: { shopId: string; secretKey: string },
  method: "GET" | "POST",
  path: string,
  options: { body?: unknown; key?: string } = {},
) {
  const headers: Record<string, string> = { authorization: basicAuth(pair.shopId, pair.secretKey) };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.key) headers["idempotence-key"] = options.key;
  const response = await app.handle(
    new Request(`${yooKassaBase}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Pays a YooKassa payment by card, as its checkout page would. */
export async function payAtCheckout(app: App, paymentId: string, cardNumber: string, expiry?: string) {
  return dataOf(apiOf(app).dev.sandbox.yookassa.checkout.pay.post({ paymentId, cardNumber, expiry }));
}

/** The YooKassa sandbox's ledger, for an account or all of it. */
export async function yooKassaLedger(app: App, accountId?: string) {
  return dataOf(apiOf(app).dev.sandbox.yookassa.ledger.get({ query: { accountId } }));
}

export type YooKassaLedgerEntry = Awaited<ReturnType<typeof yooKassaLedger>>[number];

/** Arms a fault of the sandbox for its next calls. */
export async function armFault(
  app: App,
  fault: {
    kind: "error" | "timeout" | "busy";
    count: number;
    isWorkDone?: boolean;
    holdMs?: number;
    method?: "GET" | "POST";
  },
) {
  return dataOf(apiOf(app).dev.sandbox.yookassa.faults.post(fault));
}

/** A notification as YooKassa POSTs it: unsigned JSON. Answers the status and body. */
export async function notifyAsYooKassa(app: App, event: string, object: Record<string, unknown>) {
  const response = await app.handle(
    request("/api/payments/yookassa/notification", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "notification", event, object }),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A receipt as YooKassa takes it, for `amount` roubles. */
export const receiptOfAmount = (amount: string, email = "payer@example.com"): YooKassaReceipt => ({
  customer: { email },
  items: [
    {
      description: "Подписка Kannt на 1 месяц",
      quantity: "1.00",
      amount: { value: amount, currency: "RUB" },
      vat_code: 1,
      payment_subject: "service",
      payment_mode: "full_payment",
    },
  ],
});

/** A card payment's body, opened on the checkout page. */
export const cardPayment = (amount = "150.00", metadata: Record<string, string> = {}) => ({
  amount: { value: amount, currency: "RUB" },
  capture: true,
  description: "Kannt, 1 month",
  payment_method_data: { type: "bank_card" },
  confirmation: { type: "redirect", return_url: "https://shop.example/return" },
  save_payment_method: true,
  receipt: receiptOfAmount(amount),
  metadata,
});

/** Where the provider sends the payer back after paying (a page of the shop's). */
export const returnUrl = "http://localhost:3000/profile?paid=1";

/**
 * A first order of the customer's opened at YooKassa, as the order path will once the
 * operator's choice sends orders there: the order made by POST /api/shop/order, then
 * started at YooKassa (startProviderPayment). Answers the widget options and where to pay.
 */
export async function yooKassaOrder(
  app: App,
  context: AppContext,
  customer: SignedIn,
  payBy: { method: "card" | "sbp"; saveMethod: boolean } = { method: "card", saveMethod: true },
  plan: { tariff?: number; period?: number } = {},
) {
  const options = await order(app, customer, plan.tariff ?? 1, plan.period ?? 1);
  const started = await startProviderPayment(context, options.invoiceId, "yookassa", payBy, { returnUrl });
  return { options, started };
}

/** The YooKassa payment id of a started order. */
export function paymentIdOf(started: StartedOrder): string {
  const url = "confirmationUrl" in started ? started.confirmationUrl : started.sbp.qrUrl;
  return new URL(url).searchParams.get("orderId") ?? "";
}

/** A customer whose 1-rouble, one-day trial was paid at YooKassa by `card` (saved for renewals). */
export async function yooKassaCardCustomer(
  app: App,
  context: AppContext,
  email: string,
  card = "4242 4242 4242 4242",
) {
  const customer = await signIn(app, email, { period: 1 });
  const { options, started } = await yooKassaOrder(app, context, customer);
  const paid = await payAtCheckout(app, paymentIdOf(started), card);
  if (!paid.success) throw new Error(`the trial was not paid: ${paid.message}`);
  return {
    ...customer,
    accountId: options.accountId,
    invoiceId: options.invoiceId,
    paymentId: paymentIdOf(started),
  };
}

/** The customer's cabinet summary. */
export async function profileOf(app: App, customer: SignedIn) {
  return dataOf(apiOf(app).profile.post(identityOf(customer), sessionOf(customer)));
}

/** Every payment row of an account, oldest first. */
export const paymentRowsOf = (context: AppContext, accountId: string) =>
  context.database.all<PaymentRow>("SELECT * FROM payments WHERE account_id = ? ORDER BY id", [accountId]);

/** The account's newest subscription row. */
export const subscriptionRowOf = (context: AppContext, accountId: string) =>
  context.database.get<SubscriptionRow>(
    "SELECT s.* FROM subscriptions s JOIN payments p ON p.subscription_id = s.id WHERE p.account_id = ? ORDER BY s.id DESC LIMIT 1",
    [accountId],
  );
