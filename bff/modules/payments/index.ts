import { Elysia, t } from "elysia";
import { currencyOf } from "../../../core/languages";
import { parseNotification } from "../../adapters/cloudpayments/notification";
import { isSignedByGateway } from "../../adapters/cloudpayments/signature";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";
import { findForbiddenText } from "../../platform/input-guard";
import { requestLanguage } from "../../platform/request-language";
import { customerErrors, errorResponse } from "../../platform/schemas";
import { customerAuthenticator } from "../customers/customer-auth";
import { receiptData } from "./model";
import { createCustomerOrder, createPrepaidOrder } from "./orders";
import { answerCheck, applyNotification } from "./webhooks";

const widgetOptions = t.Object({
  publicId: t.String(),
  amount: t.Number(),
  currency: t.Union([t.Literal("RUB"), t.Literal("KZT")]),
  invoiceId: t.String(),
  accountId: t.String(),
  description: t.String(),
  email: t.Optional(t.String()),
  trial: t.Boolean(),
  reason: t.Optional(t.String()),
  data: receiptData,
});

/** Orders for the payment widget and the gateway's notifications (DESIGN §6). */
export function paymentsModule(context: AppContext) {
  const authenticate = customerAuthenticator(context);
  const notificationRoute =
    (kind: "check" | "pay" | "fail" | "refund") =>
    async ({ request }: { request: Request }) => {
      const counted = (result: string) => context.metrics.notifications.inc({ kind, result });
      // The signature is checked over the raw bytes before anything is parsed.
      const raw = new Uint8Array(await request.arrayBuffer());
      if (!isSignedByGateway(context.config.cloudPaymentsApiSecret, raw, request.headers)) {
        counted("refused");
        throw new AppError("UNAUTHORIZED", "The notification signature is missing or wrong.");
      }
      const notification = parseNotification(raw, request.headers.get("content-type"));
      if (!notification) {
        counted("refused");
        throw new AppError(
          "BAD_REQUEST",
          "The notification is not a set of fields with a TransactionId and an Amount.",
        );
      }
      // Parsed here, not by the framework, so the global input rule is applied here (a NUL
      // cannot even be stored on PostgreSQL).
      const field = findForbiddenText(notification);
      if (field) {
        counted("refused");
        throw new AppError("BAD_REQUEST", `The notification field "${field}" contains a control character.`);
      }
      const now = context.clock.now();
      const code =
        kind === "check"
          ? await answerCheck(context.database, notification, now)
          : await applyNotification(context.database, kind, notification, now);
      // 0 is the gateway's "accepted"; any other code is a refusal it will show the payer.
      counted(code === 0 ? "accepted" : `code_${code}`);
      return { code };
    };
  const notificationHooks = {
    parse: "none" as const,
    response: { 200: t.Object({ code: t.Number() }), 400: errorResponse, 401: errorResponse },
  };

  return new Elysia({ tags: ["payments"] })
    .post(
      "/shop/order",
      async ({ body, request, set }) => {
        if (body.prepaidToken) {
          return createPrepaidOrder(
            context,
            body.prepaidToken,
            body.tariff,
            body.period,
            currencyOf(requestLanguage(request)),
            context.clientAddress(request),
            requestLanguage(request),
          );
        }
        const { customer } = await authenticate(request, body, set);
        return createCustomerOrder(
          context,
          customer,
          body.tariff,
          body.period,
          context.clientAddress(request),
          requestLanguage(request),
        );
      },
      {
        body: t.Object({
          uid: t.Optional(t.String({ maxLength: 256 })),
          email: t.Optional(t.String({ maxLength: 320 })),
          prepaidToken: t.Optional(t.String({ minLength: 16, maxLength: 256 })),
          tariff: t.Number(),
          period: t.Number(),
        }),
        response: { 200: widgetOptions, ...customerErrors, 409: errorResponse, 503: errorResponse },
        detail: {
          summary: "Widget options of a first payment, decided by the server",
          description:
            "With the customer's session and {uid, email, tariff, period}, or anonymously with {prepaidToken, tariff, period}.",
        },
      },
    )
    .get(
      "/payments/settings",
      () => ({
        publicId: context.payments.gateway.publicId,
        widgetScriptUrl: context.payments.widgetScriptUrl,
        isSandbox: context.payments.sandbox !== undefined,
      }),
      { detail: { summary: "What the browser needs to open the payment widget" } },
    )
    .group("/payments/cloudpayments", (group) =>
      group
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
        }),
    );
}
