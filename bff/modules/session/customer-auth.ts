import { Elysia } from "elysia";
import type { UserRow } from "../../../db/queries/users";
import { users } from "../../../db/queries/users";
import type { AppContext } from "../../context";
import { AppError, type LocalizedText } from "../../platform/errors";
import { createReadCache } from "../../platform/read-cache";
import { rememberCustomerLanguage } from "../../platform/request-language";
import { isCrossSite, sessionCookieHeader, sessionToken } from "./session-cookie";
import { type ValidSession, validateSession } from "./sessions";

/** Said to the customer in their language: a sign-in screen may show them. */
const refusals = {
  anotherAccount: {
    en: "This request is for another account. Sign in as that account to continue.",
    ru: "Этот запрос относится к другому аккаунту. Войдите в него, чтобы продолжить.",
    zh: "此请求属于另一个账户。请登录该账户后继续。",
    kk: "Бұл сұраныс басқа аккаунтқа қатысты. Жалғастыру үшін сол аккаунтқа кіріңіз.",
  },
  signIn: {
    en: "Please sign in to continue.",
    ru: "Войдите, чтобы продолжить.",
    zh: "请登录以继续。",
    kk: "Жалғастыру үшін кіріңіз.",
  },
  sessionEnded: {
    en: "Your session has ended. Please sign in again.",
    ru: "Сеанс завершён. Войдите снова.",
    zh: "您的会话已结束。请重新登录。",
    kk: "Сеанс аяқталды. Қайта кіріңіз.",
  },
} satisfies Record<string, LocalizedText>;

type OwnedBody = { email?: unknown; uid?: unknown } | undefined;
type ResponseHeaders = { headers: Record<string, unknown> };

/** The body's uid/e-mail must be the signed-in customer's own (DESIGN §4). */
function assertOwnBody(body: OwnedBody, user: UserRow): void {
  const email = typeof body?.email === "string" ? body.email.trim().toLowerCase() : "";
  const uid = typeof body?.uid === "string" ? body.uid : "";
  if ((email && email !== user.email.toLowerCase()) || (uid && uid !== user.uid)) {
    throw new AppError("FORBIDDEN", refusals.anotherAccount);
  }
}

/**
 * Who is calling: the session from the cookie, refusing other sites and bodies that
 * name another account. Used by the `customer` macro and by the one route that also
 * serves anonymous buyers (/api/shop/order).
 */
export function customerAuthenticator({ database, clock, config }: AppContext) {
  // Who a session token belongs to, until this server writes anything (a logout, an
  // extension) or 1 s passes: a logout made on another instance holds within that second.
  const signedIn = createReadCache<string, { session: ValidSession; user: UserRow } | undefined>(
    database,
    clock,
    1000,
  );
  return async (request: Request, body: unknown, set: ResponseHeaders) => {
    if (isCrossSite(request)) throw new AppError("FORBIDDEN", "Requests from other sites are not accepted.");
    const token = sessionToken(request);
    if (!token) throw new AppError("UNAUTHORIZED", refusals.signIn);
    const found = await signedIn.get(token, async () => {
      const session = await validateSession(database, token, clock.now());
      const user = session ? await users.byId(database, session.userId) : undefined;
      return session && user ? { session, user } : undefined;
    });
    const session = found && found.session.expiresAt > clock.now() ? found.session : undefined;
    const user = found?.user;
    if (!session || !user) throw new AppError("UNAUTHORIZED", refusals.sessionEnded);
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
export function customerAuth(context: AppContext) {
  const authenticate = customerAuthenticator(context);
  return new Elysia({ name: "customer-auth", seed: context.database }).macro({
    customer: {
      resolve: ({ body, request, set }) => authenticate(request, body, set),
    },
  });
}
