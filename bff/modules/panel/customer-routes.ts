import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { pageOf, pageQuery } from "../../platform/paging";
import { panelErrors } from "../../platform/schemas";
import { operatorAuth } from "../operators/operator-auth";
import { searchCustomers } from "./customer-search";
import { userIdQuery } from "./model";
import { userDetails } from "./users";

/** Finding a customer and opening their card (any operator). */
export function panelCustomerRoutes(context: AppContext) {
  const { database, clock } = context;
  return new Elysia()
    .use(operatorAuth(context))
    .post(
      "/users/search",
      ({ query }) => searchCustomers(database, query.emailPart ?? "", pageOf(query, 10)),
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
    });
}
