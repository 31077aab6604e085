import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The signed cancel link of a renewal notice (DESIGN §14): `{PUBLIC_URL}/cancel?token=…`,
 * valid 7 days, good only for opening that account's cancel screen and cancelling.
 * A plain HMAC, not a JWT library: the notice that carries it is built inside the billing
 * transaction, so signing stays pure computation, with no awaits and no I/O. The key is derived from JWT_SECRET for this one purpose,
 * so no other token of the product verifies as a cancel token, nor the other way round.
 */
export const cancelTokenLifetimeMs = 7 * 24 * 60 * 60 * 1000;

const purpose = "kannt-cancel-link-v1";
// node:crypto rather than Bun.CryptoHasher (the same HMAC-SHA256), so the browser tests,
// which run under Node, can make the links a renewal notice carries.
const keyOf = (secret: string) => createHmac("sha256", secret).update(purpose).digest();
const mac = (secret: string, payload: string) =>
  createHmac("sha256", keyOf(secret)).update(payload).digest("base64url");

export function signCancelToken(secret: string, userId: number, now: number): string {
  const payload = Buffer.from(JSON.stringify({ u: userId, e: now + cancelTokenLifetimeMs })).toString(
    "base64url",
  );
  return `${payload}.${mac(secret, payload)}`;
}

/** base64url payload, a dot, a base64url SHA-256 MAC (43 characters); real tokens are about 90. */
const tokenShape = /^[A-Za-z0-9_-]{1,400}\.[A-Za-z0-9_-]{43}$/;

/** The account a valid, unexpired cancel token names; undefined for anything else. */
export function verifyCancelToken(secret: string, token: string, now: number): number | undefined {
  // The shape is checked before anything is computed, so a huge or odd string costs nothing.
  if (token.length > 512 || !tokenShape.test(token)) return undefined;
  const [payload, signature] = token.split(".");
  if (!payload || !signature) return undefined;
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
      u?: unknown;
      e?: unknown;
    };
    const { u: userId, e: expiresAt } = claims;
    // The test clock may move by fractions of a day, so the expiry need not be whole.
    if (typeof userId !== "number" || !Number.isSafeInteger(userId) || userId < 1) return undefined;
    if (typeof expiresAt !== "number" || !Number.isFinite(expiresAt)) return undefined;
    return expiresAt > now ? userId : undefined;
  } catch {
    return undefined;
  }
}

export const cancelUrl = (publicUrl: string, secret: string, userId: number, now: number) =>
  `${publicUrl}/cancel?token=${signCancelToken(secret, userId, now)}`;
