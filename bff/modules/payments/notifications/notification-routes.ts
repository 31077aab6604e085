import { Elysia, t } from "elysia";
import type { AppContext } from "../../../context";
import { answerInEnglish } from "../../../platform/request-language";
import { errorResponse } from "../../../platform/schemas";
import { type NotificationKind, takeNotification } from "./notification-intake";

/** The gateway's notifications (DESIGN §6): the body is read as bytes, its signature checked first. */
export function notificationRoutes(context: AppContext) {
  const notificationRoute =
    (kind: NotificationKind) =>
    async ({ request }: { request: Request }) => {
      // The gateway is a program: its refusals go to its logs, in English.
      answerInEnglish(request);
      return takeNotification(context, kind, new Uint8Array(await request.arrayBuffer()), request.headers);
    };
  const notificationHooks = {
    parse: "none" as const,
    response: { 200: t.Object({ code: t.Number() }), 400: errorResponse, 401: errorResponse },
  };
  return new Elysia({ prefix: "/payments/cloudpayments" })
    .post("/check", notificationRoute("check"), {
      ...notificationHooks,
      detail: { summary: "Gateway Check notification" },
    })
    .post("/pay", notificationRoute("pay"), {
      ...notificationHooks,
      detail: { summary: "Gateway Pay notification" },
    })
    .post("/fail", notificationRoute("fail"), {
      ...notificationHooks,
      detail: { summary: "Gateway Fail notification" },
    })
    .post("/refund", notificationRoute("refund"), {
      ...notificationHooks,
      detail: { summary: "Gateway Refund notification" },
    });
}
