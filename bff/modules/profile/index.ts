import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { createReadCache } from "../../platform/read-cache";
import { customerIdentity } from "../../platform/schemas";
import { customerAuth, customerAuthenticator, type SignedIn } from "../session/customer-auth";
import { clearedSessionCookieHeader } from "../session/session-cookie";
import { deleteAccount } from "./account-deletion";
import { exportAccount } from "./account-export";
import { cabinetResponses, deleteBody, deletedResponses } from "./model";
import { profileOf } from "./service";

/** Exported for the bench that measures the framework's own cost. */
export { cabinet } from "./model";

type Cabinet = Awaited<ReturnType<typeof profileOf>>;

/** The cabinet's summary (POST /api/profile) and the customer's own account: its export and deletion. */
export function profileModule(context: AppContext) {
  return new Elysia().use(cabinetRoutes(context)).use(ownAccountRoutes(context));
}

/** POST /profile: the cabinet's summary, the hottest call there is. */
function cabinetRoutes(context: AppContext) {
  const { database, clock } = context;
  // The cabinet is read far more often than anything in it changes; a hit is answered
  // without a promise (read-cache.ts).
  const profiles = createReadCache<number, Cabinet>(database, clock, 1000);
  const cabinetOf = (customerId: number) => profileOf(database, customerId, clock.now());
  type WithSummary = SignedIn & { summary: Cabinet };
  const withSummary = (signed: SignedIn): WithSummary | Promise<WithSummary> => {
    const found = profiles.get(signed.customer.id, cabinetOf);
    return found instanceof Promise
      ? found.then((summary) => ({ ...signed, summary }))
      : { ...signed, summary: found };
  };
  const authenticate = customerAuthenticator(context);
  const signedInWithSummary = (
    request: Request,
    body: unknown,
    set: { headers: Record<string, unknown> },
  ) => {
    const signed = authenticate(request, body, set);
    return signed instanceof Promise ? signed.then(withSummary) : withSummary(signed);
  };
  return new Elysia({ prefix: "/profile", tags: ["cabinet"] })
    .use(customerAuth(context))
    .macro({
      // The cabinet call is the hottest there is. Its session check (the customer macro's
      // own authenticator) and its summary are resolved in one step, so a cached summary is
      // answered without the route waiting a second time: Elysia awaits a handler whose
      // source returns a call, and this one returns a value.
      withSummary: {
        resolve: ({ body, request, set }) => signedInWithSummary(request, body, set),
      },
    })
    .post("", ({ summary }) => summary, {
      withSummary: true,
      body: t.Object(customerIdentity),
      response: cabinetResponses,
      detail: { summary: "The cabinet: subscription, next charge, devices and free slots" },
    });
}

/** /profile/export and /profile/delete: the customer's own account, as a download or gone. */
function ownAccountRoutes(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/profile", tags: ["cabinet"] })
    .use(customerAuth(context))
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
        body: deleteBody,
        response: deletedResponses,
        detail: {
          summary:
            "Delete the signed-in customer's account (confirm: true): renewals stop, access ends now, the card, devices, logs and mail are deleted, the account is anonymized; payments stay for accounting",
        },
      },
    );
}
