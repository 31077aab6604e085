import { Elysia } from "elysia";
import type { UserRow } from "../../../db/queries/users";
import { users } from "../../../db/queries/users";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";
import { createReadCache } from "../../platform/read-cache";
import { rememberCustomerLanguage } from "../../platform/request-language";
import { isCrossSite, sessionCookieHeader, sessionToken } from "./session-cookie";
import { type ValidSession, validateSession } from "./sessions";

type CustomerAuthContext = Pick<AppContext, "database" | "clock" | "config">;

type OwnedBody = { email?: unknown; uid?: unknown } | undefined;
type ResponseHeaders = { headers: Record<string, unknown> };

/** The body's uid/e-mail must be the signed-in customer's own (DESIGN §4). */
function assertOwnBody(body: OwnedBody, user: UserRow): void {
  const email = typeof body?.email === "string" ? body.email.trim().toLowerCase() : "";
  const uid = typeof body?.uid === "string" ? body.uid : "";
  if ((email && email !== user.email.toLowerCase()) || (uid && uid !== user.uid)) {
    throw new AppError("another_account");
  }
}

/**
 * Who is calling: the session from the cookie, refusing other sites and bodies that
 * name another account. Used by the `customer` macro and by the one route that also
 * serves anonymous buyers (/api/shop/order).
 */
export function customerAuthenticator({ database, clock, config }: CustomerAuthContext) {
  // Who a session token belongs to, until this server writes anything (a logout, an
  // extension) or 1 s passes: a logout made on another instance holds within that second.
  const signedIn = createReadCache<string, { session: ValidSession; user: UserRow } | undefined>(
    database,
    clock,
    1000,
  );
  return async (request: Request, body: unknown, set: ResponseHeaders) => {
    if (isCrossSite(request)) throw new AppError("cross_site_request");
    const token = sessionToken(request);
    if (!token) throw new AppError("sign_in_required");
    const found = await signedIn.get(token, async () => {
      const session = await validateSession(database, token, clock.now());
      const user = session ? await users.byId(database, session.userId) : undefined;
      return session && user ? { session, user } : undefined;
    });
    const session = found && found.session.expiresAt > clock.now() ? found.session : undefined;
    const user = found?.user;
    if (!session || !user) throw new AppError("session_ended");
    if (session.isRenewed)
      set.headers["set-cookie"] = sessionCookieHeader(config.publicUrl, token, session.expiresAt);
    rememberCustomerLanguage(request, user.language);
    assertOwnBody(body as OwnedBody, user);
    return { customer: user, session };
  };
}

/**
 * Customer authentication as a macro: routes opt in with `{ customer: true }` and
 * receive `{ customer, session }`. Nothing else in a route checks the session.
 */
export function customerAuth(context: CustomerAuthContext) {
  const authenticate = customerAuthenticator(context);
  return new Elysia({ name: "customer-auth", seed: context.database }).macro({
    customer: {
      resolve: ({ body, request, set }) => authenticate(request, body, set),
    },
  });
}
