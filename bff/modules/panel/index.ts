import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";
import { pageOf, pageQuery } from "../../platform/paging";
import { panelErrors } from "../../platform/schemas";
import { panelEntriesRoutes } from "../access/entries/panel-entries-routes";
import { panelNodesRoutes } from "../access/nodes/panel-nodes-routes";
import { panelProbesRoutes } from "../access/nodes/probes/panel-probes-routes";
import { authenticateOperator, operatorAuth } from "../operators/operator-auth";
import { securityRoutes } from "../operators/second-factor/security-routes";
import { panelPaymentRoutes } from "../payments/routing/panel-payment-routes";
import { panelPromoRoutes } from "../promos/panel-promo-routes";
import { auditLogPage } from "./audit-log";
import { panelCustomerHistoryRoutes } from "./customer-history-routes";
import { panelCustomerRoutes } from "./customer-routes";
import { dashboardOf } from "./dashboard";
import { panelRefundRoutes } from "./refund-routes";
import { staffRoutes } from "./staff-routes";

/** The calls an operator can make before they have the second factor they must have: their own factors'. */
const isEnrolmentPath = (path: string) =>
  path === "/api/panel/security" || path.startsWith("/api/panel/security/");

/** The operator panel's calls under /api/panel, with the spec's paths, parameters and page sizes. */
export function panelModule(context: AppContext) {
  const { database, clock } = context;
  return (
    new Elysia({ prefix: "/panel", tags: ["panel"] })
      // Who is calling is checked before the body is validated: no token means 401 whatever the body.
      // The operator macro takes this same look-up (authenticateOperator keeps it for the request).
      // Added first, so it runs for every route below, those of the plugins included.
      // An operator who must have a second factor and has none can only enrol one (DESIGN §12).
      .onTransform(async ({ request, path }) => {
        const operator = await authenticateOperator(context, request);
        if (operator.mustEnrol && !isEnrolmentPath(path))
          throw new AppError("second_factor_enrolment_required");
      })
      .use(operatorAuth(context))
      .use(securityRoutes(context))
      .use(staffRoutes(context))
      .use(panelNodesRoutes(context))
      .use(panelEntriesRoutes(context))
      .use(panelProbesRoutes(context))
      .use(panelPromoRoutes(context))
      .use(panelPaymentRoutes(context))
      .get("/dashboard", ({ query }) => dashboardOf(context, query), {
        operator: "admin",
        query: t.Object({
          from: t.Optional(t.String({ maxLength: 10 })),
          to: t.Optional(t.String({ maxLength: 10 })),
        }),
        detail: {
          summary:
            "The administrators' dashboard over UTC days from–to (YYYY-MM-DD, at most 366, last 30 by default): active subscriptions, failed payments and events per day, revenue per month and currency, trial-to-paid conversion, churn",
        },
      })
      .use(panelCustomerRoutes(context))
      .use(panelCustomerHistoryRoutes(context))
      .get("/clock", () => ({ now: new Date(clock.now()).toISOString() }), {
        operator: "support",
        response: { 200: t.Object({ now: t.String({ description: "ISO 8601" }) }), ...panelErrors },
        detail: {
          summary:
            "The server's billing clock, which promo validity is counted from (the demo's test clock moves it)",
        },
      })
      .use(panelRefundRoutes(context))
      .get("/audit", ({ query }) => auditLogPage(database, pageOf(query, 20)), {
        operator: "admin",
        query: t.Object(pageQuery),
        response: panelErrors,
        detail: { summary: "Who did what, when, from where and on whom (administrators), 20 per page" },
      })
  );
}
