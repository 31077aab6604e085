import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { releaseAttempt, reserveAttempt } from "../../platform/attempt-limit";
import { AppError } from "../../platform/errors";
import { requestLanguage } from "../../platform/request-language";
import { customerErrors, customerIdentity, errorResponse } from "../../platform/schemas";
import { customerAuth } from "../session/customer-auth";
import { shopData } from "../shop";
import { shopOf } from "../shop/service";
import { applyPromoCode } from "./apply-promo";
import { promoLimitKeys } from "./promo-limits";

/** POST /api/shop/applyPromo: a customer's operator promo code, answered with the new shop data. */
export function promosModule(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/shop", tags: ["shop"] }).use(customerAuth(context)).post(
    "/applyPromo",
    async ({ customer, body, request }) => {
      // Counted before the code is looked up, so parallel guesses cannot slip past the limit.
      const keys = promoLimitKeys(customer.id, context.clientAddress(request));
      await reserveAttempt(database, keys, clock.now(), "too_many_promo_codes");
      // One transaction: the once-per-customer check and the discount it sets go together.
      const outcome = await database.transaction(() =>
        applyPromoCode(database, customer.id, body.promoCode, clock.now()),
      );
      if (outcome !== "unknown") await releaseAttempt(database, keys);
      if (outcome === "unknown") throw new AppError("promo_unknown");
      if (outcome === "already-used") throw new AppError("promo_already_used");
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
