import { timingSafeEqual } from "node:crypto";

/**
 * The signed cancel link of a renewal notice (DESIGN §14): `{PUBLIC_URL}/cancel?token=…`,
 * valid 7 days, good only for opening that account's cancel screen and cancelling.
 * Synchronous (an HMAC, not a JWT library), because the notice that carries it is queued
 * inside the billing transaction. The key is derived from JWT_SECRET for this one purpose,
 * so no other token of the product verifies as a cancel token, nor the other way round.
 */
export const cancelTokenLifetimeMs = 7 * 24 * 60 * 60 * 1000;

const purpose = "kannt-cancel-link-v1";
const keyOf = (secret: string) => new Bun.CryptoHasher("sha256", secret).update(purpose).digest();
const mac = (secret: string, payload: string) =>
  new Bun.CryptoHasher("sha256", keyOf(secret)).update(payload).digest("base64url");

export function signCancelToken(secret: string, userId: number, now: number): string {
  const payload = Buffer.from(JSON.stringify({ u: userId, e: now + cancelTokenLifetimeMs })).toString(
    "base64url",
  );
  return `${payload}.${mac(secret, payload)}`;
}

/** The account a valid, unexpired cancel token names; undefined for anything else. */
export function verifyCancelToken(secret: string, token: string, now: number): number | undefined {
  const [payload, signature, ...rest] = token.split(".");
  if (!payload || !signature || rest.length > 0 || token.length > 512) return undefined;
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
      u?: unknown;
      e?: unknown;
    };
    if (typeof claims.u !== "number" || !Number.isSafeInteger(claims.u) || typeof claims.e !== "number")
      return undefined;
    return claims.e > now ? claims.u : undefined;
  } catch {
    return undefined;
  }
}

export const cancelUrl = (publicUrl: string, secret: string, userId: number, now: number) =>
  `${publicUrl}/cancel?token=${signCancelToken(secret, userId, now)}`;
