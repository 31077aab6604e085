import { readCookie } from "../../../core/languages";
import { sessionCookieName } from "./sessions";

/**
 * The configured public origin alone decides: X-Forwarded-Proto is whatever the client
 * or a proxy wrote, so it could drop Secure from a cookie an https site sets (or add it
 * where the browser would then never send the cookie back).
 */
const isHttpsOrigin = (publicUrl: string) => publicUrl.toLowerCase().startsWith("https://");

/** The session token from the Cookie header (read directly: the hot path skips Elysia's cookie jar). */
export function sessionToken(request: Request): string | undefined {
  return readCookie(request.headers.get("cookie"), sessionCookieName) || undefined;
}

/** HttpOnly, SameSite=Lax, and Secure exactly when PUBLIC_URL is https (DESIGN §12). */
export function sessionCookieHeader(publicUrl: string, token: string, expiresAt: number): string {
  const secure = isHttpsOrigin(publicUrl) ? "; Secure" : "";
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
