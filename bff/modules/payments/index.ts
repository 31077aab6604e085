import { Elysia, t } from "elysia";
import { currencyOf } from "../../../core/languages";
import { payments } from "../../../db/queries/payments";
import { parseNotification } from "../../adapters/cloudpayments/notification";
import { isSignedByGateway } from "../../adapters/cloudpayments/signature";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";
import { findForbiddenText } from "../../platform/input-guard";
import { answerInEnglish, requestLanguage } from "../../platform/request-language";
import { customerErrors, errorResponse } from "../../platform/schemas";
import { customerAuthenticator } from "../session/customer-auth";
import { receiptData } from "./model";
import { answerCheck, applyNotification } from "./notifications/webhooks";
import { orderStatusOf } from "./orders/order-status";
import { createCustomerOrder, createPrepaidOrder, firstInvoicePrefix } from "./orders/orders";
import { attachPrepaid } from "./orders/prepaid-attach";
import { previewPrepaid } from "./orders/prepaid-preview";
import { profilePaymentRoutes } from "./profile-routes";
import { refundRefusedTrialsNow } from "./refunds/refused-trial-refunds";

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

const orderStatus = t.Object({
  status: t.Union([
    t.Literal("pending"),
    t.Literal("completed"),
    t.Literal("declined"),
    t.Literal("refunded"),
  ]),
  trialRefused: t.Optional(t.Union([t.Literal("card"), t.Literal("customer"), t.Literal("account")])),
  reason: t.Optional(t.String()),
  fullPrice: t.Optional(
    t.Object({
      amount: t.Number(),
      currency: t.Union([t.Literal("RUB"), t.Literal("KZT")]),
      tariff: t.Number(),
      period: t.Number(),
    }),
  ),
});

const prepaidPreview = t.Object({
  outcome: t.Union([t.Literal("extends"), t.Literal("starts"), t.Literal("refused"), t.Literal("bound")]),
  days: t.Optional(t.Number()),
  months: t.Optional(t.Number()),
  until: t.Optional(t.String()),
  reason: t.Optional(t.String()),
  isRefundOnConfirm: t.Optional(t.Boolean()),
  /** Extra device slots the added time does not pay for: they end at `until` (DESIGN §13). */
  slotsEnd: t.Optional(t.Object({ count: t.Number(), until: t.String() })),
});

const prepaidAttached = t.Object({
  bound: t.Boolean(),
  reason: t.Optional(t.String()),
  expirationDate: t.Union([t.String(), t.Null()]),
  subscriptionIsActive: t.Boolean(),
});

/** Orders for the payment widget and the gateway's notifications (DESIGN §6). */
export function paymentsModule(context: AppContext) {
  const authenticate = customerAuthenticator(context);
  const notificationRoute =
    (kind: "check" | "pay" | "fail" | "refund") =>
    async ({ request }: { request: Request }) => {
      // The gateway is a program: its refusals go to its logs, in English.
      answerInEnglish(request);
      const counted = (result: string) => context.metrics.notifications.inc({ kind, result });
      // The signature is checked over the raw bytes before anything is parsed.
      const raw = new Uint8Array(await request.arrayBuffer());
      if (!isSignedByGateway(context.config.cloudPaymentsApiSecret, raw, request.headers)) {
        counted("refused");
        throw new AppError("notification_unsigned");
      }
      const notification = parseNotification(raw, request.headers.get("content-type"));
      if (!notification) {
        counted("refused");
        throw new AppError("notification_unreadable");
      }
      // Parsed here, not by the framework, so the global input rule is applied here (a NUL
      // cannot even be stored on PostgreSQL).
      const field = findForbiddenText(notification);
      if (field) {
        counted("refused");
        throw new AppError("notification_invisible_character", { field });
      }
      const now = context.clock.now();
      const code =
        kind === "check"
          ? await answerCheck(context.database, notification, now)
          : await applyNotification(context.database, kind, notification, now);
      // A first payment refused its trial at Pay goes back to the card at once (DESIGN §13).
      if (kind === "pay" && notification.InvoiceId.startsWith(firstInvoicePrefix)) {
        const paid = await payments.byInvoice(context.database, notification.InvoiceId);
        if (paid?.trial_refusal && paid.status === "completed") await refundRefusedTrialsNow(context);
      }
      // 0 is the gateway's "accepted"; any other code is a refusal it will show the payer.
      counted(code === 0 ? "accepted" : `code_${code}`);
      return { code };
    };
  const notificationHooks = {
    parse: "none" as const,
    response: { 200: t.Object({ code: t.Number() }), 400: errorResponse, 401: errorResponse },
  };

  return new Elysia({ tags: ["payments"] })
    .use(profilePaymentRoutes(context))
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
            body.fullPrice === true,
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
          body.fullPrice === true,
        );
      },
      {
        body: t.Object({
          uid: t.Optional(t.String({ maxLength: 256 })),
          email: t.Optional(t.String({ maxLength: 320 })),
          prepaidToken: t.Optional(t.String({ minLength: 16, maxLength: 256 })),
          // As at register: a number written as text, as browser storage keeps it, is taken too.
          tariff: t.Numeric(),
          period: t.Numeric(),
          fullPrice: t.Optional(t.Boolean()),
        }),
        response: { 200: widgetOptions, ...customerErrors, 409: errorResponse, 503: errorResponse },
        detail: {
          summary: "Widget options of a first payment, decided by the server",
          description:
            "With the customer's session and {uid, email, tariff, period}, or anonymously with {prepaidToken, tariff, period}. `fullPrice: true` orders the plan at its price without the trial (a card that had one).",
        },
      },
    )
    .post(
      "/shop/orderStatus",
      ({ body, request }) => orderStatusOf(context, body.invoiceId, requestLanguage(request)),
      {
        body: t.Object({ invoiceId: t.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: orderStatus, 400: errorResponse, 404: errorResponse },
        detail: {
          summary: "What became of a first payment's order",
          description:
            "After the widget closes: whether the 1-unit trial was refused (the card or the customer had one), why, in the customer's language, and the plan at its price.",
        },
      },
    )
    .post(
      "/shop/attachPrepaid",
      async ({ body, request, set }) => {
        const { customer } = await authenticate(request, body, set);
        return attachPrepaid(context, customer, body.prepaidToken, requestLanguage(request));
      },
      {
        body: t.Object({
          uid: t.String({ maxLength: 256 }),
          email: t.String({ maxLength: 320 }),
          prepaidToken: t.String({ minLength: 16, maxLength: 256 }),
        }),
        response: { 200: prepaidAttached, ...customerErrors },
        detail: {
          summary: "Attach an anonymous purchase to the signed-in account (after the customer confirms)",
          description:
            "The binding /api/register does with `prepaidToken`, from the cabinet with the session: a purchase the customer did not attach at sign-in. A refusal is an answer with its reason.",
        },
      },
    )
    .post(
      "/shop/prepaidPreview",
      async ({ body, request, set }) => {
        const { customer } = await authenticate(request, body, set);
        return previewPrepaid(
          context.database,
          customer.id,
          body.prepaidToken,
          requestLanguage(request),
          context.clock.now(),
        );
      },
      {
        body: t.Object({
          uid: t.String({ maxLength: 256 }),
          email: t.String({ maxLength: 320 }),
          prepaidToken: t.String({ minLength: 16, maxLength: 256 }),
        }),
        response: { 200: prepaidPreview, ...customerErrors },
        detail: {
          summary: "What attaching an anonymous purchase to this account would do",
          description:
            "The binding dialog's text before the click: the period bought is added to the access the account has, or starts now, with the date access then ends (and, when extending, until when the account's extra device slots stay paid: slotsEnd); or why it would be refused.",
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
