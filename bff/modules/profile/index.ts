import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { createReadCache } from "../../platform/read-cache";
import { requestLanguage } from "../../platform/request-language";
import { customerErrors, customerIdentity, errorResponse, rowId } from "../../platform/schemas";
import { devicesPart } from "../access/model";
import { addDeviceSlot } from "../access/slot-purchase";
import { removeSavedCard } from "../payments/card-removal";
import { ownPaidPayment, paymentHistoryOf } from "../payments/payment-history";
import { receiptPolicy, renderReceipt } from "../payments/receipt-page";
import { ensureReferralCode } from "../referrals/referral-codes";
import { inviteLink, renderReferralQr } from "../referrals/referral-qr";
import { customerAuth } from "../session/customer-auth";
import { clearedSessionCookieHeader } from "../session/session-cookie";
import { deleteAccount } from "./account-deletion";
import { exportAccount } from "./account-export";
import { profileOf } from "./service";

/** The saved card: last four while one is saved; when it was removed, once it is gone. */
const card = t.Object({
  isSaved: t.Boolean(),
  lastFour: t.Nullable(t.String()),
  removedAt: t.Nullable(t.String()),
});

const historyEntry = t.Object({
  id: t.String(),
  paymentId: t.Number(),
  date: t.String(),
  amount: t.Number({ description: "currency units" }),
  currency: t.Union([t.Literal("RUB"), t.Literal("KZT")]),
  purpose: t.Union([
    t.Literal("trial"),
    t.Literal("first"),
    t.Literal("renewal"),
    t.Literal("device"),
    t.Literal("refund"),
  ]),
  months: t.Nullable(t.Number()),
  trialDays: t.Nullable(t.Number()),
  status: t.Union([t.Literal("paid"), t.Literal("declined"), t.Literal("refunded"), t.Literal("pending")]),
  receiptUrl: t.Nullable(t.String()),
});

/** The cabinet's answer (exported for the bench that measures the framework's own cost). */
export const cabinet = t.Object({
  success: t.Literal(true),
  userInfo: t.Object({
    expirationDate: t.Nullable(t.String()),
    subscriptionIsActive: t.Boolean(),
    subscriptionStatus: t.String(),
    nextTransactionDate: t.Nullable(t.String()),
    amount: t.Nullable(t.Number()),
    /** Beyond the spec: when the customer's last subscription ended, if one did. */
    endedAt: t.Nullable(t.String()),
  }),
  ...devicesPart,
  card,
});

export function profileModule(context: AppContext) {
  const { database, clock } = context;
  // The cabinet is read far more often than anything in it changes.
  const profiles = createReadCache<number, Awaited<ReturnType<typeof profileOf>>>(database, clock, 1000);
  return new Elysia({ prefix: "/profile", tags: ["cabinet"] })
    .use(customerAuth(context))
    .post(
      "",
      ({ customer }) => profiles.get(customer.id, () => profileOf(database, customer.id, clock.now())),
      {
        customer: true,
        body: t.Object(customerIdentity),
        response: {
          200: cabinet,
          ...customerErrors,
        },
        detail: { summary: "The cabinet: subscription, next charge, devices and free slots" },
      },
    )
    .post(
      "/addDevice",
      ({ customer, request }) => addDeviceSlot(context, customer, context.clientAddress(request)),
      {
        customer: true,
        body: t.Object(customerIdentity),
        response: {
          200: t.Object({ success: t.Literal(true), charged: t.Number(), ...devicesPart }),
          ...customerErrors,
          409: errorResponse,
        },
        detail: {
          summary:
            "Buy one more device slot: charged pro rata now with the saved card, then monthly with renewals",
        },
      },
    )
    .post("/removeCard", ({ customer }) => removeSavedCard(database, customer.id, clock.now()), {
      customer: true,
      body: t.Object(customerIdentity),
      response: {
        200: t.Object({
          success: t.Literal(true),
          subscriptionStatus: t.String(),
          subscriptionIsActive: t.Boolean(),
          expirationDate: t.Nullable(t.String()),
          card,
        }),
        ...customerErrors,
        409: errorResponse,
      },
      detail: {
        summary:
          "Remove the saved card: the token is deleted, renewals stop, access runs to the end of the paid period",
      },
    })
    .post(
      "/export",
      async ({ customer, set }) => {
        set.headers["content-disposition"] = 'attachment; filename="kannt-my-data.json"';
        set.headers["cache-control"] = "private, no-store";
        return exportAccount(database, customer, clock.now());
      },
      {
        customer: true,
        body: t.Object(customerIdentity),
        detail: {
          summary:
            "Everything kept about the signed-in customer, as a JSON download: account, subscriptions, payments, devices, connections, e-mails",
        },
      },
    )
    .post(
      "/delete",
      async ({ customer, request, set }) => {
        const deleted = await deleteAccount(context, customer, context.clientAddress(request));
        set.headers["set-cookie"] = clearedSessionCookieHeader();
        return deleted;
      },
      {
        customer: true,
        body: t.Object({ ...customerIdentity, confirm: t.Literal(true) }),
        response: {
          200: t.Object({ success: t.Literal(true), deletedAt: t.String() }),
          ...customerErrors,
          409: errorResponse,
        },
        detail: {
          summary:
            "Delete the signed-in customer's account (confirm: true): renewals stop, access ends now, the card, devices, logs and mail are deleted, the account is anonymized; payments stay for accounting",
        },
      },
    )
    .post("/payments", ({ customer }) => paymentHistoryOf(database, customer.id), {
      customer: true,
      body: t.Object(customerIdentity),
      response: {
        200: t.Object({ success: t.Literal(true), payments: t.Array(historyEntry), hasMore: t.Boolean() }),
        ...customerErrors,
      },
      detail: { summary: "The customer's own payments and refunds, newest first (the latest 50)" },
    })
    .get(
      "/payments/:id/receipt",
      async ({ customer, params, request }) =>
        new Response(
          renderReceipt(
            await ownPaidPayment(database, customer.id, params.id),
            customer.email,
            requestLanguage(request),
          ),
          {
            headers: {
              "content-type": "text/html; charset=utf-8",
              "content-security-policy": receiptPolicy,
              "cache-control": "private, no-store",
            },
          },
        ),
      {
        customer: true,
        params: t.Object({ id: rowId }),
        detail: { summary: "The receipt of one of the customer's own payments, as a printable page" },
      },
    )
    .post(
      "/getReferralCode",
      async ({ customer }) => ({
        success: true as const,
        referralCode: await ensureReferralCode(database, customer.id),
      }),
      {
        customer: true,
        body: t.Object(customerIdentity),
        response: {
          200: t.Object({ success: t.Literal(true), referralCode: t.String() }),
          ...customerErrors,
        },
        detail: { summary: "The customer's referral code, created on first request" },
      },
    )
    .get(
      "/referralQr.png",
      async ({ customer, query, request }) => {
        // The demo's default origin is a guess (localhost); the origin the customer reached is not.
        const origin = context.config.isPublicUrlDefault
          ? new URL(request.url).origin
          : context.config.publicUrl;
        const png = await renderReferralQr(
          inviteLink(origin, await ensureReferralCode(database, customer.id)),
        );
        return new Response(png, {
          headers: {
            "content-type": "image/png",
            "cache-control": "private, max-age=3600",
            "content-disposition": `${query.download ? "attachment" : "inline"}; filename="kannt-invite-qr.png"`,
          },
        });
      },
      {
        customer: true,
        query: t.Object({ download: t.Optional(t.String({ maxLength: 5 })) }),
        detail: { summary: "The customer's invite link as a QR code PNG (256 px, margin 4, level H)" },
      },
    );
}
