import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exportJWK, generateKeyPair, importJWK, type JWK } from "jose";

export type DemoKeys = { privateKey: CryptoKey; publicJwk: JWK };

/**
 * The demo identity provider's signing key (ES256). Kept in the data folder so
 * tokens issued before a restart still verify; in-memory databases get a fresh one.
 */
export async function loadDemoKeys(dataDirectory: string | undefined): Promise<DemoKeys> {
  const path = dataDirectory ? join(dataDirectory, "demo-idp-key.jwk.json") : undefined;
  if (path && existsSync(path)) {
    const privateJwk = JSON.parse(readFileSync(path, "utf8")) as JWK;
    const { d: _secret, ...publicJwk } = privateJwk;
    return { privateKey: (await importJWK(privateJwk, "ES256")) as CryptoKey, publicJwk };
  }
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid: crypto.randomUUID(), alg: "ES256", use: "sig" };
  if (path && dataDirectory) {
    mkdirSync(dataDirectory, { recursive: true });
    const privateJwk = { ...(await exportJWK(privateKey)), kid: publicJwk.kid, alg: "ES256" };
    writeFileSync(path, JSON.stringify(privateJwk), { mode: 0o600 });
  }
  return { privateKey, publicJwk };
}
