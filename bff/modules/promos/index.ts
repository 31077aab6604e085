import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { releaseAttempt, reserveAttempt } from "../../platform/attempt-limit";
import { AppError, type LocalizedText } from "../../platform/errors";
import { requestLanguage } from "../../platform/request-language";
import { customerErrors, customerIdentity, errorResponse } from "../../platform/schemas";
import { customerAuth } from "../session/customer-auth";
import { shopData } from "../shop";
import { shopOf } from "../shop/service";
import { applyPromoCode } from "./apply-promo";
import { promoLimitKeys, tooManyPromoCodes } from "./promo-limits";

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

/** POST /api/shop/applyPromo: a customer's operator promo code, answered with the new shop data. */
export function promosModule(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/shop", tags: ["shop"] }).use(customerAuth(context)).post(
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
