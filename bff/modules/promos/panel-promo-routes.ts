import { Elysia, t } from "elysia";
import { translator } from "../../../core/i18n";
import { newPromoProblem, storedPromoCode } from "../../../core/promo-rules";
import type { AppContext } from "../../context";
import { answerErrorsAs } from "../../platform/error-handler";
import { AppError } from "../../platform/errors";
import { pageOf, pageQuery } from "../../platform/paging";
import { callerLanguage } from "../../platform/request-language";
import { panelErrors } from "../../platform/schemas";
import { operatorAuth } from "../operators/operator-auth";
import { availablePromos, createPromo, promoTypesIn } from "./panel-promos";

/** The panel's promo code calls under /api/panel/promos (the panel module mounts them behind its sign-in). */
export function panelPromoRoutes(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/promos" })
    .use(operatorAuth(context))
    .get(
      "/promoTypes",
      ({ operator, request }) => (operator.role === "admin" ? promoTypesIn(callerLanguage(request)) : []),
      {
        operator: "support",
        response: panelErrors,
        detail: { summary: "Promo kinds this operator may create (none for support staff)" },
      },
    )
    .get(
      "/availablePromos",
      ({ query }) => {
        const { number, size } = pageOf(query, 5);
        return availablePromos(database, number, size, clock.now(), query.code);
      },
      {
        operator: "support",
        query: t.Object({
          ...pageQuery,
          sortBy: t.Optional(t.Literal("id")),
          sortDirection: t.Optional(t.Literal("DESC")),
          code: t.Optional(t.String({ maxLength: 64 })),
        }),
        response: panelErrors,
        detail: {
          summary:
            "Available, unexpired promo codes, newest first, 5 per page; code filters by part of the code (any case)",
        },
      },
    )
    .post(
      "/generatePromo",
      async ({ body, operator, request }) => {
        // The spec's answer is `message, success`: a refusal carries its message there too.
        answerErrorsAs(request, "with-message");
        const problem = newPromoProblem(body, clock.now());
        if (problem) throw new AppError(problem);
        if (!(await createPromo(database, body, operator.id, context.clientAddress(request), clock.now())))
          throw new AppError("promo_code_taken");
        const code = storedPromoCode(body.promoCode);
        return {
          success: true,
          message: translator(callerLanguage(request))("panel.promoCreated", { code }),
        };
      },
      {
        operator: "admin",
        body: t.Object({
          promoCode: t.String({ maxLength: 64 }),
          promoType: t.String({ maxLength: 32 }),
          isAvailable: t.Boolean(),
          discount: t.Number(),
          expirationDate: t.String({ maxLength: 32 }),
        }),
        detail: { summary: "Create a promo code (administrators); the spec's rules are enforced here too" },
      },
    );
}
