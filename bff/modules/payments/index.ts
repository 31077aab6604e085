import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { customerAuthenticator } from "../session/customer-auth";
import { notificationRoutes } from "./notifications/notification-routes";
import { yooKassaNotificationRoutes } from "./notifications/yookassa-routes";
import { orderRoutes } from "./orders/order-routes";
import { prepaidRoutes } from "./orders/prepaid-routes";
import { profilePaymentRoutes } from "./profile-routes";

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
      () => ({
        publicId: context.payments.gateway.publicId,
        widgetScriptUrl: context.payments.widgetScriptUrl,
        isSandbox: context.payments.sandbox !== undefined,
      }),
      { detail: { summary: "What the browser needs to open the payment widget" } },
    )
    .use(notificationRoutes(context))
    .use(yooKassaNotificationRoutes(context));
}
