import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { pageOf, pageQuery } from "../../platform/paging";
import { callerLanguage } from "../../platform/request-language";
import { panelErrors } from "../../platform/schemas";
import { operatorAuth } from "../operators/operator-auth";
import { messagesOf } from "./messages";
import { messagesPage, receiptsPage, userIdQuery } from "./model";
import { connectionLogsOf, inviteesOf, receiptsOf } from "./users";

/** Beyond the spec's 3: support reading a long history picks a bigger page. */
const receiptPageSizes = [10, 25, 50] as const;

/** A customer's receipts, invitees, messages and connections (any operator). */
export function panelCustomerHistoryRoutes(context: AppContext) {
  const { database, clock } = context;
  return new Elysia()
    .use(operatorAuth(context))
    .post(
      "/checks",
      ({ query }) => {
        const { number, size } = pageOf(query, 3, receiptPageSizes);
        return receiptsOf(database, query.userId, number, size, clock.now());
      },
      {
        operator: "support",
        query: t.Object({ ...pageQuery, userId: userIdQuery }),
        response: { 200: receiptsPage, ...panelErrors },
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
        response: { 200: messagesPage, ...panelErrors },
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
    });
}
