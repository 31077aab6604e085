import { Elysia, t } from "elysia";
import type { AppContext } from "../../platform/context";
import { customerErrors, customerIdentity } from "../../platform/schemas";
import { customerAuth } from "../customers/customer-auth";
import { shopOf } from "./service";

export function shopModule(context: AppContext) {
  return new Elysia({ prefix: "/shop", tags: ["shop"] })
    .use(customerAuth(context))
    .post("/getShop", ({ customer }) => shopOf(context.database, customer, context.clock.now()), {
      customer: true,
      body: t.Object(customerIdentity),
      response: {
        200: t.Object({
          success: t.Literal(true),
          firstPayment: t.Number(),
          monthlyPayment: t.Number(),
          strikethroughPrice: t.Number(),
          discount: t.Number(),
          referralDiscount: t.Number(),
          promoDiscount: t.Number(),
          periodMonths: t.Number(),
          currency: t.Union([t.Literal("RUB"), t.Literal("KZT")]),
          devicePrice: t.Number(),
        }),
        ...customerErrors,
      },
      detail: { summary: "Prices and discounts for the purchase block (amounts in currency units)" },
    });
}
