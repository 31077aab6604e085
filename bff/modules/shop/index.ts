import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { requestLanguage } from "../../platform/request-language";
import { customerErrors, customerIdentity } from "../../platform/schemas";
import { customerAuth } from "../session/customer-auth";
import { shopOf } from "./service";

export const shopData = t.Object({
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
  /**
   * Beyond the spec: what one more device slot charges now (the rest of the period, to
   * `until`), then `perMonth` with each renewal; absent while no slot can be bought.
   */
  deviceCharge: t.Optional(t.Object({ amount: t.Number(), until: t.String(), perMonth: t.Number() })),
  /** DESIGN §13(c): whether buying now starts with the 1-unit trial, and the first full charge. */
  trial: t.Boolean(),
  trialDays: t.Number(),
  noTrialReason: t.Optional(t.String()),
  firstCharge: t.Object({ date: t.String(), amount: t.Number() }),
  /** Beyond the spec: every tariff priced for this customer, so the cabinet offers a choice. */
  plans: t.Array(
    t.Object({
      months: t.Union([t.Literal(1), t.Literal(3), t.Literal(6), t.Literal(12)]),
      price: t.Number(),
      listPrice: t.Number(),
      savingPercent: t.Number(),
      firstPayment: t.Number(),
      firstCharge: t.Object({ date: t.String(), amount: t.Number() }),
    }),
  ),
});

export function shopModule(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/shop", tags: ["shop"] })
    .use(customerAuth(context))
    .post(
      "/getShop",
      ({ customer, request }) => shopOf(database, customer, clock.now(), requestLanguage(request)),
      {
        customer: true,
        body: t.Object(customerIdentity),
        response: { 200: shopData, ...customerErrors },
        detail: { summary: "Prices and discounts for the purchase block (amounts in currency units)" },
      },
    );
}
