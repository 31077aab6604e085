import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { loadDemoKeys, loadSharedDemoKeys } from "./adapters/demo-idp/keys";
import type { AppContext, ContextOverrides } from "./context";
import { accessModule } from "./modules/access/devices";
import { registerEntryMetrics } from "./modules/access/entries/entry-metrics";
import { nodeApiModule } from "./modules/access/nodes/node-api";
import { registerNodeMetrics } from "./modules/access/nodes/panel-nodes-metrics";
import { probeApiModule } from "./modules/access/nodes/probes/probe-api";
import { subscriptionUrlModule } from "./modules/access/subscription";
import { analyticsModule } from "./modules/analytics";
import { devEventCountsModule } from "./modules/analytics/dev-counts";
import { apiDocsModule } from "./modules/api-docs";
import { billingControlModule } from "./modules/dev/billing";
import { fixturesModule } from "./modules/dev/fixtures";
import { demoIdentityModule } from "./modules/dev/idp";
import { devMailModule } from "./modules/dev/mail";
import { sandboxControlModule, sandboxGatewayModule } from "./modules/dev/sandbox";
import { yooKassaSandboxModule } from "./modules/dev/sandbox-yookassa";
import { documentsModule } from "./modules/documents";
import { healthModule } from "./modules/health";
import { createMailTransport } from "./modules/mail/transport";
import { operatorAuthModule } from "./modules/operators";
import { panelModule } from "./modules/panel";
import { paymentsModule } from "./modules/payments";
import { createPayments } from "./modules/payments/gateway";
import { profileModule } from "./modules/profile";
import { promosModule } from "./modules/promos";
import { referralsModule } from "./modules/referrals/index";
import { shopModule } from "./modules/shop";
import { signInModule } from "./modules/sign-in";
import { createIdentityProviders } from "./modules/sign-in/providers";
import { subscriptionsModule } from "./modules/subscriptions";
import { createAddressResolver } from "./platform/client-address";
import { type Clock, systemClock } from "./platform/clock";
import type { Config } from "./platform/config";
import { errorHandler } from "./platform/error-handler";
import { AppError } from "./platform/errors";
import { createHttpClient } from "./platform/http-client";
import { inputGuard } from "./platform/input-guard";
import { createMetrics } from "./platform/metrics";
import { adoptSharedSecrets } from "./platform/shared-secrets";
import { pathOf } from "./platform/url-path";
import { baseSecurityHeaders } from "./security-headers";

/** The composition root: builds the feature services every module is handed. */
export async function createContext(
  loaded: Config,
  database: AppContext["database"],
  clock: Clock,
  overrides: ContextOverrides = {},
): Promise<AppContext> {
  const http = createHttpClient();
  const config = database.isShared ? await adoptSharedSecrets(loaded, database) : loaded;
  // Nothing may sign with an empty key: unconfigured secrets are made by prepareDataFolder.
  if (config.jwtSecret === "" || config.cloudPaymentsApiSecret === "")
    throw new Error("The generated secrets are missing: run prepareDataFolder(config) before createContext.");
  const keys = database.isShared
    ? await loadSharedDemoKeys(database)
    : await loadDemoKeys(config.databasePath === ":memory:" ? undefined : config.dataDirectory);
  const metrics = createMetrics(database);
  registerNodeMetrics(metrics.registry, database, clock);
  registerEntryMetrics(metrics.registry, database);
  const payments = createPayments(config, clock, http, database);
  metrics.watchProviderHealth(payments.health);
  return {
    config,
    database,
    clock,
    http,
    identity: createIdentityProviders(config, keys, clock, http),
    payments,
    clientAddress: createAddressResolver(config.trustedProxies),
    mail: overrides.mail ?? createMailTransport(config),
    metrics,
    stopping: overrides.stopping ?? new AbortController().signal,
    leaseClock: overrides.leaseClock ?? systemClock,
  };
}

/** Demo parts (DESIGN §11) are under /api/dev/; outside demo mode they do not exist. */
const isDemoPath = (path: string) => path === "/api/dev" || path.startsWith("/api/dev/");

/**
 * Outside demo mode, before any parsing or validation, a demo path answers exactly like a
 * path that does not exist, whatever its body. In demo mode there is nothing to refuse, and
 * no hook runs for every request.
 */
function demoPathRefusal(isDemo: boolean) {
  const plugin = new Elysia({ name: "demo-path-refusal", seed: isDemo });
  if (!isDemo)
    plugin.onRequest(({ request }) => {
      if (isDemoPath(pathOf(request.url))) throw new AppError("not_found");
    });
  return plugin;
}

/** Composes the feature modules under /api. The islands' typed client is built from `App`. */
export function createApp(context: AppContext) {
  const isDemo = context.config.mode === "demo";
  const app = new Elysia({ prefix: "/api" })
    // On every API answer, errors and early refusals included (DESIGN §12).
    .headers(baseSecurityHeaders(context.config))
    .use(errorHandler)
    // First of all (request hooks run in the order they are added).
    .use(demoPathRefusal(isDemo))
    .use(inputGuard)
    .use(
      openapi({
        path: "/docs",
        // Only the JSON document: the plugin's own page loads its viewer from a CDN, so
        // modules/api-docs serves the page with a pinned local copy instead (DESIGN §12).
        provider: null,
        // The offer PDF has a dot in its path; document it anyway.
        exclude: { staticFile: false },
        documentation: {
          info: {
            title: "Kannt API",
            version: "1.0.0",
            description: "Customer, operator and payment calls of the Kannt subscription service.",
          },
        },
      }),
    )
    .use(apiDocsModule(context))
    .use(healthModule(context))
    .use(documentsModule())
    .use(signInModule(context))
    .use(profileModule(context))
    .use(referralsModule(context))
    .use(shopModule(context))
    .use(promosModule(context))
    .use(subscriptionsModule(context))
    .use(paymentsModule(context))
    .use(operatorAuthModule(context))
    .use(panelModule(context))
    .use(accessModule(context))
    .use(nodeApiModule(context))
    .use(probeApiModule(context))
    .use(analyticsModule(context))
    // GET /sub/{token}, the client apps' subscription URL: outside /api, answered before routing.
    .use(subscriptionUrlModule(context))
    // Demo mode only: outside it these answer 404 like any unknown endpoint.
    .use(demoIdentityModule(context))
    .use(fixturesModule(context))
    .use(sandboxGatewayModule(context))
    .use(sandboxControlModule(context))
    .use(yooKassaSandboxModule(context))
    .use(billingControlModule(context))
    .use(devMailModule(context))
    .use(devEventCountsModule(context));
  context.http.attachLoopback((request) => app.handle(request));
  return app;
}

export type App = ReturnType<typeof createApp>;
