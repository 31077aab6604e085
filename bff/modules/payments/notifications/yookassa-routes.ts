import { Elysia, t } from "elysia";
import type { AppContext } from "../../../context";
import { answerInEnglish } from "../../../platform/request-language";
import { errorResponse } from "../../../platform/schemas";
import { takeYooKassaNotification } from "./yookassa-intake";
import { settleReturnedOrder } from "./yookassa-return";

/** YooKassa's notifications (DESIGN §6): one URL for every event; the body is read as bytes. */
export function yooKassaNotificationRoutes(context: AppContext) {
  return new Elysia({ prefix: "/payments/yookassa" })
    .get(
      "/return",
      async ({ query, redirect }) => {
        await settleReturnedOrder(context, query.order);
        return redirect("/profile", 303);
      },
      {
        query: t.Object({ order: t.String({ maxLength: 64 }) }),
        detail: {
          summary:
            "Where YooKassa's page returns the payer: the order's payment is asked at YooKassa (and applied once decided, as its notification would be), then the cabinet",
        },
      },
    )
    .post(
      "/notification",
      async ({ request }) => {
        // YooKassa is a program: its refusals go to its logs, in English.
        answerInEnglish(request);
        return takeYooKassaNotification(context, new Uint8Array(await request.arrayBuffer()));
      },
      {
        parse: "none",
        response: {
          200: t.Object({
            result: t.Union([t.Literal("applied"), t.Literal("ignored"), t.Literal("unverified")]),
          }),
          400: errorResponse,
          404: errorResponse,
          503: errorResponse,
        },
        detail: {
          summary: "YooKassa notification (payment.succeeded, payment.canceled, refund.succeeded)",
          description:
            "Unsigned, so acted on only after GET /v3/payments/{id} (or /v3/refunds/{id}) at YooKassa agrees with the event. 200 whether applied, ignored or not confirmed (nothing changed); 503 while YooKassa cannot be asked, so it sends the notification again.",
        },
      },
    );
}
