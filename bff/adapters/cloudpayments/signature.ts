import { createHmac, timingSafeEqual } from "node:crypto";

/** base64(HMAC-SHA256(key = API secret, message = body)), as the gateway signs notifications. */
export function signBody(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Content-HMAC is computed over the raw (URL-encoded) body, X-Content-HMAC over the
 * decoded one; either, compared in constant time, proves the gateway sent it.
 */
export function isSignedByGateway(secret: string, rawBody: string, headers: Headers): boolean {
  const contentHmac = headers.get("content-hmac");
  if (contentHmac && sameSignature(signBody(secret, rawBody), contentHmac)) return true;
  const decodedHmac = headers.get("x-content-hmac");
  if (!decodedHmac) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawBody.replace(/\+/g, " "));
  } catch {
    return false;
  }
  return sameSignature(signBody(secret, decoded), decodedHmac);
}
