import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { releaseAttempt, reserveAttempt } from "../../platform/attempt-limit";
import { AppError, type LocalizedText } from "../../platform/errors";
import { requestLanguage } from "../../platform/request-language";
import { customerErrors, customerIdentity, errorResponse } from "../../platform/schemas";
import { customerAuth } from "../customers/customer-auth";
import { promoLimitKeys, tooManyPromoCodes } from "../customers/promo-limits";
import { applyPromoCode } from "../customers/referral";
import { shopOf } from "./service";

const shopData = t.Object({
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

const refusals = {
  unknownPromo: {
    en: "This promo code does not exist or has expired.",
    ru: "Такого промокода нет, или срок его действия истёк.",
    zh: "该优惠码不存在或已过期。",
    kk: "Мұндай промокод жоқ немесе оның мерзімі өтіп кеткен.",
  },
  usedPromo: {
    en: "You have already used this promo code.",
    ru: "Вы уже использовали этот промокод.",
    zh: "您已经使用过该优惠码。",
    kk: "Сіз бұл промокодты бұрын қолдандыңыз.",
  },
} satisfies Record<string, LocalizedText>;

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
    )
    .post(
      "/applyPromo",
      async ({ customer, body, request }) => {
        // Counted before the code is looked up, so parallel guesses cannot slip past the limit.
        const keys = promoLimitKeys(customer.id, context.clientAddress(request));
        await reserveAttempt(database, keys, clock.now(), tooManyPromoCodes);
        // One transaction: the once-per-customer check and the discount it sets go together.
        const outcome = await database.transaction(() =>
          applyPromoCode(database, customer.id, body.promoCode, clock.now()),
        );
        if (outcome !== "unknown") await releaseAttempt(database, keys);
        if (outcome === "unknown") throw new AppError("NOT_FOUND", refusals.unknownPromo);
        if (outcome === "already-used") throw new AppError("CONFLICT", refusals.usedPromo);
        return shopOf(database, customer, clock.now(), requestLanguage(request));
      },
      {
        customer: true,
        body: t.Object({ ...customerIdentity, promoCode: t.String({ minLength: 1, maxLength: 64 }) }),
        response: {
          200: shopData,
          ...customerErrors,
          404: errorResponse,
          409: errorResponse,
          429: errorResponse,
        },
        detail: { summary: "Apply an operator promo code to the purchase; answers the new shop data" },
      },
    );
}
