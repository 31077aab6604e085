import { randomInt } from "node:crypto";

/** The one place randomness comes from, so tests and audits know where to look. */
export function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}

/** URL-safe random text with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return Buffer.from(randomBytes(bytes)).toString("base64url");
}

/** A random (version 4) UUID: the VLESS/VMess id of a device's credential. */
export function randomUuid(): string {
  return crypto.randomUUID();
}

/** A whole number from `min` to `max`, both included, every one equally likely. */
export function randomInteger(min: number, max: number): number {
  return randomInt(min, max + 1);
}
