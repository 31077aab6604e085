import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { createReadCache } from "../../platform/read-cache";
import { customerErrors, customerIdentity, errorResponse } from "../../platform/schemas";
import { devicesPart } from "../access/model";
import { card } from "../payments/model";
import { customerAuth } from "../session/customer-auth";
import { clearedSessionCookieHeader } from "../session/session-cookie";
import { deleteAccount } from "./account-deletion";
import { exportAccount } from "./account-export";
import { profileOf } from "./service";

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

/** The cabinet's summary (POST /api/profile) and the customer's own account: its export and deletion. */
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
    );
}
