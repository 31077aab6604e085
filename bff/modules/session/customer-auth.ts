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
  // The cabinet's own calls name the account exactly as it is stored: nothing to normalise.
  if (
    (body?.email === undefined || body.email === user.email) &&
    (body?.uid === undefined || body.uid === user.uid)
  )
    return;
  const email = typeof body?.email === "string" ? body.email.trim().toLowerCase() : "";
  const uid = typeof body?.uid === "string" ? body.uid : "";
  if ((email && email !== user.email.toLowerCase()) || (uid && uid !== user.uid)) {
    throw new AppError("another_account");
  }
}

export type SignedIn = { customer: UserRow; session: ValidSession };

/**
 * Who is calling: the session from the cookie, refusing other sites and bodies that
 * name another account. Used by the `customer` macro, by the cabinet's own macro (which
 * resolves its summary in the same step, profile/index.ts) and by the routes that also
 * serve anonymous buyers (/api/shop/order). A session already looked up is answered at
 * once, without a promise: this runs before every cabinet call.
 */
export function customerAuthenticator({ database, clock, config }: CustomerAuthContext) {
  // Who a session token belongs to, until this server writes anything (a logout, an
  // extension) or 1 s passes: a logout made on another instance holds within that second.
  const signedIn = createReadCache<string, SignedIn | undefined>(database, clock, 1000);
  const lookUp = async (token: string): Promise<SignedIn | undefined> => {
    const session = await validateSession(database, token, clock.now());
    const customer = session ? await users.byId(database, session.userId) : undefined;
    return session && customer ? { customer, session } : undefined;
  };
  const admit = (
    request: Request,
    body: unknown,
    set: ResponseHeaders,
    token: string,
    found: SignedIn | undefined,
    now: number,
  ): SignedIn => {
    if (!found || found.session.expiresAt <= now) throw new AppError("session_ended");
    const { customer, session } = found;
    if (session.isRenewed)
      set.headers["set-cookie"] = sessionCookieHeader(config.publicUrl, token, session.expiresAt);
    rememberCustomerLanguage(request, customer.language);
    assertOwnBody(body as OwnedBody, customer);
    // The cached pair itself: the routes only read it.
    return found;
  };
  return (request: Request, body: unknown, set: ResponseHeaders): SignedIn | Promise<SignedIn> => {
    if (isCrossSite(request)) throw new AppError("cross_site_request");
    const token = sessionToken(request);
    if (!token) throw new AppError("sign_in_required");
    const now = clock.now();
    const found = signedIn.get(token, lookUp, now);
    return found instanceof Promise
      ? found.then((known) => admit(request, body, set, token, known, now))
      : admit(request, body, set, token, found, now);
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
