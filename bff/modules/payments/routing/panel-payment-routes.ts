import { Elysia, t } from "elysia";
import { paymentMethods, paymentProviders } from "../../../../core/payment-methods";
import type { AppContext } from "../../../context";
import { oneOf, panelChangeErrors, panelErrors } from "../../../platform/schemas";
import { operatorAuth } from "../../operators/operator-auth";
import { isProviderConfigured, paymentRoutes, saveRoutes } from "./payment-routes";

const route = t.Object({
  provider: oneOf(paymentProviders),
  method: oneOf(paymentMethods),
  enabled: t.Boolean(),
});

const routesAnswer = t.Object({
  routes: t.Array(
    t.Object({
      ...route.properties,
      configured: t.Boolean({ description: "Whether the provider's shop is set up on this server" }),
    }),
  ),
  providers: t.Array(
    t.Object({
      provider: oneOf(paymentProviders),
      healthy: t.Boolean({ description: "False while it fails most calls of the last 5 minutes here" }),
      calls: t.Integer({ description: "Calls to it from this instance in the last 5 minutes" }),
      failed: t.Integer(),
    }),
  ),
});

/**
 * The panel's payment routes under /api/panel/payments (DESIGN §6, choice and failover):
 * which providers and methods take new purchases, in which order, and how each provider has
 * been answering this instance.
 */
export function panelPaymentRoutes(context: AppContext) {
  const answer = async () => ({
    routes: (await paymentRoutes(context)).map((entry) => ({
      ...entry,
      configured: isProviderConfigured(context, entry.provider),
    })),
    providers: context.payments.health.states(),
  });
  return new Elysia({ prefix: "/payments" })
    .use(operatorAuth(context))
    .get("/routes", answer, {
      operator: "admin",
      response: { 200: routesAnswer, ...panelErrors },
      detail: {
        summary:
          "Payment routes (administrators): each provider and method, on or off, in the order new purchases try them, with each provider's health on this instance",
      },
    })
    .put(
      "/routes",
      async ({ body, operator, request }) => {
        await saveRoutes(
          context,
          body.routes,
          { operatorId: operator.id, ip: context.clientAddress(request) },
          context.clock.now(),
        );
        return answer();
      },
      {
        operator: "admin",
        body: t.Object({ routes: t.Array(route, { maxItems: 16 }) }),
        response: { 200: routesAnswer, ...panelChangeErrors },
        detail: {
          summary:
            "Set the payment routes (administrators, audited): every provider and method exactly once, first choice first; a provider is switched on only once its shop is configured. Renewals and refunds stay with the provider that holds the payment.",
        },
      },
    );
}
