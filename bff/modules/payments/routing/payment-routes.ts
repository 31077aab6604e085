import type { Currency } from "../../../../core/money";
import {
  type PaymentMethod,
  type PaymentProvider,
  paymentMethods,
  paymentProviders,
  providerNames,
} from "../../../../core/payment-methods";
import type { Database } from "../../../../db/database";
import { audit } from "../../../../db/queries/operators";
import { settings } from "../../../../db/queries/settings";
import type { AppContext } from "../../../context";
import { AppError } from "../../../platform/errors";

/** One way of taking a new purchase's money: a provider and a method, on or off. */
export type PaymentRoute = { provider: PaymentProvider; method: PaymentMethod; enabled: boolean };

/** Where the operator's order of routes is kept: one value for every instance on the database. */
const routesKey = "payment_routes";

/** Every provider and method pair, in the order a new shop starts with. */
const everyPair = paymentProviders.flatMap((provider) =>
  paymentMethods.map((method) => ({ provider, method })),
);

type RoutesContext = Pick<AppContext, "config" | "database" | "payments">;

/**
 * Whether the provider's shop is set up on this server: CloudPayments always is (the real
 * one or the sandbox); YooKassa with its shop's pair (always in demo, its sandbox).
 */
export function isProviderConfigured(
  context: Pick<AppContext, "payments">,
  provider: PaymentProvider,
): boolean {
  return provider === "cloudpayments" || context.payments.yookassa !== undefined;
}

/**
 * What a shop takes before its operator chose: the demo takes every method of every provider
 * it has a sandbox for; a real shop takes cards at CloudPayments, and SBP or YooKassa once
 * the operator has them from the provider and switches them on (docs/operators/payments.md).
 */
function defaultRoutes(context: RoutesContext): PaymentRoute[] {
  return everyPair.map(({ provider, method }) => ({
    provider,
    method,
    enabled:
      isProviderConfigured(context, provider) &&
      (context.config.mode === "demo" || (provider === "cloudpayments" && method === "card")),
  }));
}

/** The stored value as routes, or nothing when it is not a complete list (never expected: it is checked when saved). */
function parsedRoutes(value: string): PaymentRoute[] | undefined {
  try {
    const routes = JSON.parse(value) as PaymentRoute[];
    return isCompleteList(routes) ? routes : undefined;
  } catch {
    return undefined;
  }
}

/** Each provider and method pair exactly once. */
function isCompleteList(routes: readonly { provider: string; method: string }[]): boolean {
  const keys = new Set(routes.map(({ provider, method }) => `${provider}/${method}`));
  return (
    routes.length === everyPair.length &&
    keys.size === everyPair.length &&
    everyPair.every(({ provider, method }) => keys.has(`${provider}/${method}`))
  );
}

/** The operator's routes, first choice first (the defaults until one was saved). */
export async function paymentRoutes(context: RoutesContext): Promise<PaymentRoute[]> {
  const stored = await settings.value(context.database, routesKey);
  const routes = (stored && parsedRoutes(stored.value)) || defaultRoutes(context);
  // A provider whose shop is gone from the configuration takes nothing, whatever was saved.
  return routes.map((route) => ({
    ...route,
    enabled: route.enabled && isProviderConfigured(context, route.provider),
  }));
}

/**
 * Saves the operator's routes, audited in the same transaction: every pair exactly once, in
 * the order new purchases should try them, and no provider switched on whose shop is not
 * configured here.
 */
export async function saveRoutes(
  context: RoutesContext,
  routes: PaymentRoute[],
  actor: { operatorId: number; ip: string | null },
  now: number,
): Promise<void> {
  if (!isCompleteList(routes)) throw new AppError("payment_routes_incomplete");
  const unconfigured = routes.find(
    (route) => route.enabled && !isProviderConfigured(context, route.provider),
  );
  if (unconfigured)
    throw new AppError("payment_provider_not_configured", { provider: providerNames[unconfigured.provider] });
  const database: Database = context.database;
  const before = await paymentRoutes(context);
  const kept = routes.map(({ provider, method, enabled }) => ({ provider, method, enabled }));
  await database.transaction(async () => {
    await settings.put(database, routesKey, JSON.stringify(kept));
    await audit.record(
      database,
      {
        operatorId: actor.operatorId,
        action: "payments.routes",
        details: { before, after: kept },
        ipAddress: actor.ip,
      },
      now,
    );
  });
}

/** SBP moves roubles only; YooKassa takes roubles only. */
function takesCurrency(route: PaymentRoute, currency: Currency): boolean {
  return currency === "RUB" || (route.provider === "cloudpayments" && route.method === "card");
}

type ChoosingContext = RoutesContext;

/**
 * Among the routes, the providers a new purchase by `method` may go to, in the order to try
 * them: the enabled routes for it that take the currency, those whose provider is healthy on
 * this instance first. A failing provider stays in the list, last: when every provider is
 * failing, a purchase tried beats one refused.
 */
function candidateProviders(
  routes: readonly PaymentRoute[],
  health: AppContext["payments"]["health"],
  method: PaymentMethod,
  currency: Currency,
): PaymentProvider[] {
  const providers = routes
    .filter((route) => route.enabled && route.method === method && takesCurrency(route, currency))
    .map(({ provider }) => provider);
  return [
    ...providers.filter((provider) => health.isHealthy(provider)),
    ...providers.filter((provider) => !health.isHealthy(provider)),
  ];
}

/** The providers a new purchase by `method` in `currency` may go to, first choice first; none when no enabled route takes it. */
export async function purchaseProviders(
  context: ChoosingContext,
  method: PaymentMethod,
  currency: Currency,
): Promise<PaymentProvider[]> {
  return candidateProviders(await paymentRoutes(context), context.payments.health, method, currency);
}

/** The methods a purchase in `currency` can be paid by now, card first. */
export async function offeredMethods(context: ChoosingContext, currency: Currency): Promise<PaymentMethod[]> {
  const routes = await paymentRoutes(context);
  return paymentMethods.filter(
    (method) => candidateProviders(routes, context.payments.health, method, currency).length > 0,
  );
}
