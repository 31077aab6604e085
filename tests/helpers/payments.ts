import { createHmac } from "node:crypto";
import type { App } from "../../bff/app";
import { type Api, apiOf, type DataOf, dataOf, identityOf, sessionOf } from "./api";
import { request } from "./app";
import { type SignedIn, signIn } from "./customers";

/** The widget's options for a new order of the customer's (the spec's `/api/shop/order`). */
export async function order(app: App, customer: SignedIn, tariff = 1, period = 30) {
  return dataOf(apiOf(app).shop.order.post({ ...identityOf(customer), tariff, period }, sessionOf(customer)));
}

export type WidgetOptions = Awaited<ReturnType<typeof order>>;

/** Pays an order in the sandbox with a test card, as the widget would. */
export async function payWithCard(app: App, invoiceId: string, cardNumber: string, amount?: number) {
  return dataOf(apiOf(app).dev.sandbox.pay.post({ invoiceId, cardNumber, amount }));
}

/** Pays as the widget does, with every field `/api/dev/sandbox/pay` takes (expiry, data). */
export async function payInSandbox(
  app: App,
  body: { invoiceId: string; cardNumber: string; expiry?: string; amount?: number; data?: object },
) {
  const answer = await apiOf(app).dev.sandbox.pay.post(body);
  return { status: answer.status, body: (answer.data ?? answer.error?.value) as Record<string, unknown> };
}

/** Every charge and refund the sandbox bank made for an account (all of them without one). */
export async function ledger(app: App, accountId?: string) {
  return dataOf(apiOf(app).dev.sandbox.ledger.get({ query: { accountId } }));
}

/** One charge or refund in the sandbox bank's ledger. */
export type LedgerEntry = Awaited<ReturnType<typeof ledger>>[number];

/** One send of a notification about a ledger transaction, and the shop's answer (null: none came). */
export type LedgerDelivery = LedgerEntry["notifications"][number];

export async function advanceDays(app: App, days: number) {
  await dataOf(apiOf(app).dev.clock.post({ advanceDays: days }));
}

export async function runBilling(app: App): Promise<Record<string, number>> {
  return dataOf(apiOf(app).dev.billing.run.post());
}

/** The gateway's answer to a notification it sent, as the notification routes' schema declares it. */
type GatewayAnswer = DataOf<Awaited<ReturnType<Api["payments"]["cloudpayments"]["pay"]["post"]>>>;

/**
 * A notification as the gateway sends it (DESIGN §6): the fields form-encoded, and
 * Content-HMAC, base64 HMAC-SHA256 under `secret`, over exactly the bytes sent. It goes
 * through raw `app.handle`, since the typed client would encode the body itself; it is
 * signed here with node:crypto rather than the product's signer, so a broken signer fails
 * these tests as well as its own. Answers the status and the gateway's code (none when
 * the notification was refused).
 */
export async function notifyAsGateway(
  app: App,
  secret: string,
  kind: "check" | "pay" | "fail" | "refund",
  fields: Record<string, string | number>,
) {
  const body = new URLSearchParams(
    Object.entries(fields).map(([name, value]) => [name, String(value)]),
  ).toString();
  const response = await app.handle(
    request(`/api/payments/cloudpayments/${kind}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "content-hmac": createHmac("sha256", secret).update(body).digest("base64"),
      },
      body,
    }),
  );
  const answer = (await response.json()) as Partial<GatewayAnswer>;
  return { status: response.status, code: answer.code };
}

export const cards = {
  success: "4242 4242 4242 4242",
  declined: "4012 8888 8888 1881",
  firstThenDeclined: "4111 1111 1111 1111",
  expiredLater: "4000 0000 0000 0069",
};

/**
 * Time passing as the renewal scheduler sees it: a pass now, then a pass after each day
 * (or the rest of it), as the server's own scheduler would run them at least. Renewals
 * need a notice sent 24 hours before (DESIGN §13(a)), which only a pass before the due
 * date can send; a bare `advanceDays` + `runBilling` over a due date finds none and moves
 * the charge. Answers the passes' counts added up.
 */
export async function passDays(app: App, days: number) {
  const total: Record<string, number> = {};
  const add = (counts: Record<string, number>) => {
    for (const [key, value] of Object.entries(counts)) total[key] = (total[key] ?? 0) + value;
  };
  add(await runBilling(app));
  let left = days;
  while (left > 1e-9) {
    const step = Math.min(1, left);
    await advanceDays(app, step);
    add(await runBilling(app));
    left -= step;
  }
  return total;
}

/** `count` customers whose 1-day trial was paid with a card that renews; returns their account ids. */
export async function payingCustomers(app: App, count: number, prefix: string): Promise<string[]> {
  const accounts: string[] = [];
  for (let start = 0; start < count; start += 25) {
    const batch = Array.from({ length: Math.min(25, count - start) }, async (_, offset) => {
      const customer = await signIn(app, `${prefix}${start + offset}@example.com`);
      const options = await order(app, customer, 1, 1);
      if (!(await payWithCard(app, options.invoiceId, cards.success)).success)
        throw new Error("trial not paid");
      return options.accountId;
    });
    accounts.push(...(await Promise.all(batch)));
  }
  return accounts;
}
