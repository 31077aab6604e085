import { createHmac, timingSafeEqual } from "node:crypto";

/** base64(HMAC-SHA256(key = API secret, message = body)), as the gateway signs notifications. */
export function signBody(secret: string, body: string | Uint8Array): string {
  return createHmac("sha256", secret).update(body).digest("base64");
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given.trim());
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the body is JSON, judged as the parser judges it (notification.ts). */
export const isJsonBody = (contentType: string | null) =>
  contentType?.toLowerCase().includes("application/json") === true;

/**
 * Both headers are checked over the raw bytes received, never over a decoded form: one
 * decoded form has many encodings (`%26` and `&` decode alike), so a signature over it
 * would also cover a re-encoded body that splits a value into a new field. Content-HMAC,
 * when present, decides alone (a wrong one is refused whatever else is sent);
 * X-Content-HMAC alone is accepted only for a JSON body, whose raw bytes are what the
 * gateway signed as its decoded body.
 */
export function isSignedByGateway(secret: string, raw: Uint8Array, headers: Headers): boolean {
  const contentHmac = headers.get("content-hmac");
  if (contentHmac !== null) return sameSignature(signBody(secret, raw), contentHmac);
  const decodedHmac = headers.get("x-content-hmac");
  if (decodedHmac === null || !isJsonBody(headers.get("content-type"))) return false;
  return sameSignature(signBody(secret, raw), decodedHmac);
}
