import { readCookie } from "../../../core/languages";
import { sessionCookieName } from "./sessions";

const isHttps = (request: Request) =>
  request.url.startsWith("https:") || request.headers.get("x-forwarded-proto") === "https";

/** The session token from the Cookie header (read directly: the hot path skips Elysia's cookie jar). */
export function sessionToken(request: Request): string | undefined {
  return readCookie(request.headers.get("cookie"), sessionCookieName) || undefined;
}

/** HttpOnly, SameSite=Lax, and Secure whenever the site is served over https. */
export function sessionCookieHeader(request: Request, token: string, expiresAt: number): string {
  const secure = isHttps(request) ? "; Secure" : "";
  return `${sessionCookieName}=${token}; Path=/; Expires=${new Date(expiresAt).toUTCString()}; HttpOnly; SameSite=Lax${secure}`;
}

export function clearedSessionCookieHeader(): string {
  return `${sessionCookieName}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`;
}

/** A state-changing call from another site's page is refused (cookies are SameSite=Lax, this is belt and braces). */
export function isCrossSite(request: Request): boolean {
  if (request.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (!origin) return false;
  if (origin === "null") return true;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  return host === null || !(origin === `http://${host}` || origin === `https://${host}`);
}
