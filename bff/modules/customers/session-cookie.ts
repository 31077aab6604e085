import type { Cookie } from "elysia";
import { sessionCookieName } from "./sessions";

type CookieJar = Record<string, Cookie<unknown>>;

/** HttpOnly, SameSite=Lax, and Secure whenever the site is served over https. */
export function setSessionCookie(
  cookie: CookieJar,
  request: Request,
  token: string,
  expiresAt: number,
): void {
  const jar = cookie[sessionCookieName];
  if (!jar) return;
  jar.set({
    value: token,
    httpOnly: true,
    sameSite: "lax",
    secure:
      new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https",
    path: "/",
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(cookie: CookieJar): void {
  cookie[sessionCookieName]?.remove();
}

/** A state-changing call from another site's page is refused (cookies are SameSite=Lax, this is belt and braces). */
export function isCrossSite(request: Request): boolean {
  if (request.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return origin === "null";
  const host =
    request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? new URL(request.url).host;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}
