import type { PaymentMethod, PaymentProvider } from "../../../core/payment-methods";
import type { Api } from "../api";

/** A provider and a method: where a payment was taken, e.g. "yookassa/sbp". */
export type Route = `${PaymentProvider}/${PaymentMethod}`;
export const everyRoute: Route[] = [
  "cloudpayments/card",
  "cloudpayments/sbp",
  "yookassa/card",
  "yookassa/sbp",
];
export const routeOf = (provider: PaymentProvider, method: PaymentMethod): Route => `${provider}/${method}`;

/**
 * Which provider the shop puts first for new purchases, by day of the story (days from its
 * start), as an operator moves trade between two acquirers: CloudPayments most of the time,
 * YooKassa for stretches (a better rate for a while, a test of the second acquirer). Every
 * method of both stays on, so a provider that is down is skipped for the other one by the
 * server's own failover, never by the operator.
 */
const stretches: { fromDay: number; first: PaymentProvider }[] = [
  { fromDay: 0, first: "cloudpayments" },
  { fromDay: 20, first: "yookassa" },
  { fromDay: 34, first: "cloudpayments" },
  { fromDay: 62, first: "yookassa" },
  { fromDay: 74, first: "cloudpayments" },
];

export function firstProviderOn(day: number): PaymentProvider {
  return stretches.filter((stretch) => stretch.fromDay <= day).at(-1)?.first ?? "cloudpayments";
}

/** Every route on, `first`'s before the other's, as the panel's Payments screen saves them. */
export function routesWithFirst(first: PaymentProvider) {
  const other: PaymentProvider = first === "cloudpayments" ? "yookassa" : "cloudpayments";
  return [first, other].flatMap((provider) =>
    (["card", "sbp"] as const).map((method) => ({ provider, method, enabled: true })),
  );
}

/** The administrator reorders the routes (PUT /api/panel/payments/routes); throws when refused. */
export async function putRoutes(api: Api, headers: Record<string, string>, first: PaymentProvider) {
  const answer = await api.panel.payments.routes.put({ routes: routesWithFirst(first) }, { headers });
  if (answer.status !== 200 || !answer.data) throw new Error(`routes not saved: ${answer.status}`);
  return answer.data;
}

/** Whether the server currently skips `provider` for new purchases (the panel's health view). */
export async function isHealthy(api: Api, headers: Record<string, string>, provider: PaymentProvider) {
  const answer = await api.panel.payments.routes.get({ headers });
  if (!answer.data) throw new Error(`routes not read: ${answer.status}`);
  return answer.data.providers.find((state) => state.provider === provider)?.healthy ?? true;
}
