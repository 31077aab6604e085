import { expect } from "vitest";
import type { App } from "../../bff/app";
import type { AppContext } from "../../bff/context";
import type { RefundAnswer } from "../../bff/modules/payments/refunds/refund-model";
import { type Api, apiOf, dataOf, identityOf, sessionOf } from "./api";
import { type SignedIn, signIn } from "./customers";
import { bearer, makeOperator, tokensFor } from "./operators";
import { advanceDays, cards, order, passDays, payWithCard } from "./payments";

/** The answer as the server's schema declares it (Message for API callers, reason and gatewayFailure for the panel). */
export type { RefundAnswer };

export type PaymentRecord = {
  id: number;
  kind: string;
  amount: number;
  status: string;
  transaction_id: string;
  refunded_amount: number;
};

/**
 * An administrator's and a support operator's bearer headers. Access tokens last 15
 * minutes of the test clock, which these tests move by months: sign in again when needed.
 */
export async function staffHeaders(app: App, context: AppContext) {
  const accounts = {
    admin: await makeOperator(context, "refund.admin", "admin"),
    support: await makeOperator(context, "refund.support", "support"),
  };
  const issued = new Map<string, { headers: { authorization: string }; at: number }>();
  const headersOf = async (role: keyof typeof accounts) => {
    const kept = issued.get(role);
    if (kept && context.clock.now() - kept.at < 10 * 60 * 1000) return kept.headers;
    const { username, password } = accounts[role];
    const headers = bearer((await tokensFor(app, username, password)).accessToken);
    issued.set(role, { headers, at: context.clock.now() });
    return headers;
  };
  return { admin: () => headersOf("admin"), support: () => headersOf("support") };
}

/** What the panel's refund and its preview are asked: the customer, and the payments when named. */
export type RefundBody = Parameters<Api["panel"]["refund"]["post"]>[0];

/** A refund (or its preview) from the panel, which must answer 200. */
export async function panelRefund(
  app: App,
  headers: Record<string, string>,
  body: RefundBody,
  path: "/api/panel/refund" | "/api/panel/refund/preview" = "/api/panel/refund",
) {
  const panel = apiOf(app).panel;
  return dataOf(
    path === "/api/panel/refund"
      ? panel.refund.post(body, { headers })
      : panel.refund.preview.post(body, { headers }),
  );
}

/** A customer who paid the 1-rouble first payment (a one-day trial) with the sandbox's good card. */
export async function payingCustomer(
  app: App,
  email: string,
  options: { provider?: "google.com" | "yandex"; referralCode?: string } = {},
): Promise<SignedIn & { accountId: string; userId: number }> {
  const customer = await signIn(app, email, { ...options, period: 1 });
  const widget = await order(app, customer, 1, 1);
  expect((await payWithCard(app, widget.invoiceId, cards.success)).success).toBe(true);
  return {
    ...customer,
    accountId: widget.accountId,
    userId: Number(widget.accountId.replace("customer-", "")),
  };
}

/** Moves the clock past the period's end and lets the scheduler charge the renewal. */
export async function renew(app: App, days: number) {
  await passDays(app, days);
}

export async function buyDevice(app: App, customer: SignedIn) {
  await dataOf(apiOf(app).profile.addDevice.post(identityOf(customer), sessionOf(customer)));
}

export const paymentsOf = (context: AppContext, userId: number) =>
  context.database.all<PaymentRecord>(
    "SELECT id, kind, amount, status, transaction_id, refunded_amount FROM payments WHERE user_id = ? ORDER BY id",
    [userId],
  );

export const subscriptionOf = (context: AppContext, userId: number) =>
  context.database.get<{ status: string; end_date: number }>(
    "SELECT status, end_date FROM subscriptions WHERE user_id = ? ORDER BY id DESC LIMIT 1",
    [userId],
  );

/** A customer whose current period holds a renewal and two extra-device charges, after an older paid period. */
export async function customerWithBusyPeriod(app: App, email: string) {
  const customer = await payingCustomer(app, email);
  await renew(app, 1.5);
  await buyDevice(app, customer); // bought in the older period
  await renew(app, 31);
  // A month of the test clock outlasts the session's 30 days: sign in again, as the customer would.
  const again = { ...customer, cookie: (await signIn(app, email, { period: 1 })).cookie };
  await buyDevice(app, again);
  await advanceDays(app, 3);
  await buyDevice(app, again);
  return again;
}
