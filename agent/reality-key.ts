import { createPrivateKey, createPublicKey } from "node:crypto";

/** PKCS#8 header of an X25519 private key (RFC 8410); the 32 key bytes follow it. */
const pkcs8X25519Prefix = Buffer.from("302e020100300506032b656e04220420", "hex");

/**
 * The REALITY public key (the links' `pbk`) of an inbound's `realitySettings.privateKey`,
 * both in the unpadded base64url Xray prints (`xray x25519`). The key is wrapped as PKCS#8
 * because Bun and Node import a JWK private key only together with its public half.
 */
export function realityPublicKey(privateKey: string): string {
  const bytes = Buffer.from(privateKey, "base64url");
  if (bytes.length !== 32 || bytes.toString("base64url") !== privateKey.replace(/=+$/, ""))
    throw new Error(
      "realitySettings.privateKey is not a 32-byte base64url X25519 key (make one with `xray x25519`)",
    );
  const key = createPrivateKey({
    key: Buffer.concat([pkcs8X25519Prefix, bytes]),
    format: "der",
    type: "pkcs8",
  });
  const publicJwk = createPublicKey(key).export({ format: "jwk" });
  if (typeof publicJwk.x !== "string") throw new Error("X25519 public key could not be derived");
  return publicJwk.x;
}
