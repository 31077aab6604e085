import { Elysia, t } from "elysia";
import { audit } from "../../../db/queries/operators";
import type { AppContext } from "../../context";
import { paged, pageOf, pageQuery } from "../../platform/paging";
import { callerLanguage } from "../../platform/request-language";
import { errorResponse, rowId } from "../../platform/schemas";
import { panelEntriesRoutes } from "../access/entries/panel-entries-routes";
import { panelNodesRoutes } from "../access/nodes/panel-nodes-routes";
import { panelProbesRoutes } from "../access/nodes/probes/panel-probes-routes";
import { deliveryRecord } from "../mail/view";
import { authenticateOperator, operatorAuth } from "../operators/operator-auth";
import { previewRefund, refundCustomer } from "../payments/refunds/refund";
import { paymentIdsDescription, refundAnswer, refundBody } from "../payments/refunds/refund-model";
import { panelPromoRoutes } from "../promos/panel-promo-routes";
import { dashboardOf } from "./dashboard";
import { messagesOf } from "./messages";
import { staffRoutes } from "./staff-routes";
import { unboundPurchases } from "./unbound-purchases";
import { connectionLogsOf, inviteesOf, receiptsOf, searchUsers, userDetails } from "./users";

const panelErrors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
} as const;
/** Beyond the spec's 3: support reading a long history picks a bigger page. */
const receiptPageSizes = [10, 25, 50] as const;
const userIdQuery = rowId;

/** The operator panel's calls under /api/panel, with the spec's paths, parameters and page sizes. */
export function panelModule(context: AppContext) {
  const { database, clock } = context;
  return (
    new Elysia({ prefix: "/panel", tags: ["panel"] })
      // Who is calling is checked before the body is validated: no token means 401 whatever the body.
      // The operator macro takes this same look-up (authenticateOperator keeps it for the request).
      .onTransform(async ({ request }) => {
        await authenticateOperator(context, request);
      })
      .use(operatorAuth(context))
      .use(staffRoutes(context))
      .use(panelNodesRoutes(context))
      .use(panelEntriesRoutes(context))
      .use(panelProbesRoutes(context))
      .use(panelPromoRoutes(context))
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
      .post(
        "/users/search",
        async ({ query }) => {
          const { number, size } = pageOf(query, 10);
          const found = await searchUsers(database, query.emailPart ?? "", number, size);
          // Beside the spec's page: paid purchases not attached to any account, on its first page.
          return {
            ...found,
            unboundPurchases: number === 0 ? await unboundPurchases(database, query.emailPart ?? "") : [],
          };
        },
        {
          operator: "support",
          query: t.Object({
            ...pageQuery,
            sortBy: t.Optional(t.Literal("id")),
            emailPart: t.Optional(t.String({ maxLength: 320 })),
          }),
          response: panelErrors,
          detail: {
            summary: "Customers whose e-mail contains emailPart (any case), 10 per page",
            description:
              "Also `unboundPurchases`: paid anonymous purchases not attached to any account whose payer e-mail contains emailPart or whose transaction id is emailPart (first page only, at most 10).",
          },
        },
      )
      .post("/users/getUserById", ({ query }) => userDetails(database, query.id, clock.now()), {
        operator: "support",
        query: t.Object({ id: userIdQuery }),
        response: panelErrors,
        detail: { summary: "A customer's details, subscription, discounts and devices" },
      })
      .post(
        "/checks",
        ({ query }) => {
          const { number, size } = pageOf(query, 3, receiptPageSizes);
          return receiptsOf(database, query.userId, number, size, clock.now());
        },
        {
          operator: "support",
          query: t.Object({ ...pageQuery, userId: userIdQuery }),
          response: panelErrors,
          detail: { summary: "A customer's receipts, newest first, 3 per page (or size 10, 25, 50)" },
        },
      )
      .post(
        "/invitations/getInviteesByInviterId",
        ({ query }) => {
          const { number, size } = pageOf(query, 10);
          return inviteesOf(database, query.userId, number, size, clock.now());
        },
        {
          operator: "support",
          query: t.Object({
            ...pageQuery,
            userId: userIdQuery,
            sortBy: t.Optional(t.Literal("created")),
            sortDirection: t.Optional(t.Literal("DESC")),
          }),
          response: panelErrors,
          detail: { summary: "Customers invited by this one, newest first, 10 per page" },
        },
      )
      .post(
        "/users/messages",
        ({ query, request }) => messagesOf(context, query.userId, pageOf(query, 10), callerLanguage(request)),
        {
          operator: "support",
          query: t.Object({ ...pageQuery, userId: userIdQuery }),
          response: {
            200: t.Object({
              content: t.Array(deliveryRecord),
              page: t.Object({
                size: t.Number(),
                number: t.Number(),
                totalElements: t.Number(),
                totalPages: t.Number(),
              }),
            }),
            ...panelErrors,
          },
          detail: {
            summary: "The messages sent to a customer and how their delivery went, newest first, 10 per page",
          },
        },
      )
      .post("/logs", ({ query }) => connectionLogsOf(database, query.userId), {
        operator: "support",
        query: t.Object({ userId: userIdQuery }),
        response: panelErrors,
        detail: { summary: "A customer's VPN connections, newest first" },
      })
      .get("/clock", () => ({ now: new Date(clock.now()).toISOString() }), {
        operator: "support",
        response: { 200: t.Object({ now: t.String({ description: "ISO 8601" }) }), ...panelErrors },
        detail: {
          summary:
            "The server's billing clock, which promo validity is counted from (the demo's test clock moves it)",
        },
      })
      .post("/refund/preview", ({ body, request }) => previewRefund(context, body, callerLanguage(request)), {
        // Read-only, and it shows no more than the receipts support staff already see; it
        // lets support tell a customer what a refund would return before asking an admin.
        operator: "support",
        body: refundBody,
        response: { 200: refundAnswer, ...panelErrors },
        detail: {
          summary: "What a refund would return now, without doing it (any operator)",
          description: `The same account rules and list as the refund. ${paymentIdsDescription}`,
        },
      })
      .post(
        "/refund",
        ({ body, operator, request }) =>
          refundCustomer(context, body, {
            id: operator.id,
            ip: context.clientAddress(request),
            language: callerLanguage(request),
          }),
        {
          operator: "admin",
          body: refundBody,
          response: { 200: refundAnswer, ...panelErrors },
          detail: {
            summary: "Refund the current period through the gateway and end access now (administrators)",
            description: `The account is found by uid alone; the e-mail must match it in any letter case. ${paymentIdsDescription} Success false, with nothing changed, when nothing is refundable.`,
          },
        },
      )
      .get(
        "/audit",
        async ({ query }) => {
          const { number, size } = pageOf(query, 20);
          const total = await audit.count(database);
          const rows = await audit.page(database, size, number * size);
          return paged(
            rows.map((row) => ({
              id: row.id,
              operator: row.username,
              action: row.action,
              targetUserId: row.target_user_id,
              targetEmail: row.target_email,
              details: JSON.parse(row.details) as unknown,
              ipAddress: row.ip_address,
              createdAt: new Date(row.created_at).toISOString(),
            })),
            number,
            size,
            total,
          );
        },
        {
          operator: "admin",
          query: t.Object(pageQuery),
          response: panelErrors,
          detail: { summary: "Who did what, when, from where and on whom (administrators), 20 per page" },
        },
      )
  );
}
