import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { customerErrors, customerIdentity, errorResponse } from "../../platform/schemas";
import { customerAuth } from "../session/customer-auth";
import { cancelLinkRoutes } from "./cancel-link";
import { subscriptionResult as result } from "./model";
import { cancelSubscription, resumeSubscription } from "./service";

export function subscriptionsModule(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/subscriptions", tags: ["subscriptions"] })
    .use(cancelLinkRoutes(context))
    .use(customerAuth(context))
    .post("/cancel", ({ customer }) => cancelSubscription(database, customer.id, clock.now()), {
      customer: true,
      body: t.Object(customerIdentity),
      response: { 200: result, ...customerErrors, 409: errorResponse },
      detail: { summary: "Turn auto-renewal off; access continues to the end of the paid period" },
    })
    .post("/resume", ({ customer }) => resumeSubscription(database, customer.id, clock.now()), {
      customer: true,
      body: t.Object(customerIdentity),
      response: { 200: result, ...customerErrors, 409: errorResponse },
      detail: { summary: "Turn auto-renewal back on for a cancelled, still running subscription" },
    });
}
