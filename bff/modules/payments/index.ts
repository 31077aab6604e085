import { Elysia, t } from "elysia";
import { currencyOf } from "../../../core/languages";
import type { AppContext } from "../../context";
import { requestLanguage } from "../../platform/request-language";
import { errorResponse } from "../../platform/schemas";
import { customerAuthenticator } from "../session/customer-auth";
import { paymentSettings } from "./model";
import { notificationRoutes } from "./notifications/notification-routes";
import { yooKassaNotificationRoutes } from "./notifications/yookassa-routes";
import { orderRoutes } from "./orders/order-routes";
import { prepaidRoutes } from "./orders/prepaid-routes";
import { profilePaymentRoutes } from "./profile-routes";
import { offeredMethods } from "./routing/payment-routes";

/** Orders for the payment widget and the gateway's notifications (DESIGN §6). */
export function paymentsModule(context: AppContext) {
  // One look-up of the customer's session for the order and the binding calls.
  const authenticate = customerAuthenticator(context);
  return new Elysia({ tags: ["payments"] })
    .use(profilePaymentRoutes(context))
    .use(orderRoutes(context, authenticate))
    .use(prepaidRoutes(context, authenticate))
    .get(
      "/payments/settings",
      async ({ query, request }) => ({
        publicId: context.payments.gateway.publicId,
        widgetScriptUrl: context.payments.widgetScriptUrl,
        isSandbox: context.payments.sandbox !== undefined,
        // The purchase's currency: the customer's (the cabinet has it from getShop), else the
        // one an anonymous purchase in the interface language is priced in.
        methods: await offeredMethods(context, query.currency ?? currencyOf(requestLanguage(request))),
        sbpNeedsPhone: context.config.sbpPayerPhone === "required",
      }),
      {
        query: t.Object({ currency: t.Optional(t.Union([t.Literal("RUB"), t.Literal("KZT")])) }),
        response: { 200: paymentSettings, 400: errorResponse },
        detail: {
          summary: "What the browser needs to open the payment widget, and the ways a purchase can be paid",
          description:
            "`methods`: how a purchase in `currency` (the interface language's when absent) can be paid: card, and SBP where it is offered and the purchase is in roubles. `sbpNeedsPhone`: an SBP order must carry `payerPhone` (SBP_PAYER_PHONE=required).",
        },
      },
    )
    .use(notificationRoutes(context))
    .use(yooKassaNotificationRoutes(context));
}
