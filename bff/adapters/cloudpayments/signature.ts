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

const hexValue = (byte: number | undefined) => {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
};

/**
 * Form decoding on bytes ("+" is a space, %XX a byte), so the decoded body is exactly
 * what the gateway signed even when it is not valid UTF-8 (text decoding would have
 * replaced such bytes and broken the comparison).
 */
export function formDecodeBytes(raw: Uint8Array): Uint8Array {
  const decoded = new Uint8Array(raw.length);
  let length = 0;
  for (let index = 0; index < raw.length; index++) {
    const byte = raw[index] as number;
    if (byte === 0x2b) decoded[length++] = 0x20;
    else if (byte === 0x25) {
      const high = hexValue(raw[index + 1]);
      const low = hexValue(raw[index + 2]);
      if (high < 0 || low < 0) decoded[length++] = byte;
      else {
        decoded[length++] = high * 16 + low;
        index += 2;
      }
    } else decoded[length++] = byte;
  }
  return decoded.subarray(0, length);
}

/**
 * Content-HMAC is computed over the raw (URL-encoded) body, X-Content-HMAC over the
 * decoded one (for a JSON body, which is not URL-encoded, the two are the same bytes);
 * either, computed over the bytes received and compared in constant time, proves the
 * gateway sent it.
 */
export function isSignedByGateway(secret: string, raw: Uint8Array, headers: Headers): boolean {
  const contentHmac = headers.get("content-hmac");
  if (contentHmac && sameSignature(signBody(secret, raw), contentHmac)) return true;
  const decodedHmac = headers.get("x-content-hmac");
  if (decodedHmac === null) return false;
  const isJson = headers.get("content-type")?.includes("application/json") === true;
  return sameSignature(signBody(secret, isJson ? raw : formDecodeBytes(raw)), decodedHmac);
}
