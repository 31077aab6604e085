import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import type { Database } from "../../../db/database";
import { sharedSetting } from "../../platform/shared-settings";

export type DemoKeys = { privateKey: CryptoKey; publicJwk: JWK };

async function newPrivateJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: crypto.randomUUID(), alg: "ES256" };
}

async function keysOf(privateJwk: JWK): Promise<DemoKeys> {
  const { d: _secret, ...publicJwk } = privateJwk;
  return {
    privateKey: (await importJWK(privateJwk, "ES256")) as CryptoKey,
    publicJwk: { ...publicJwk, alg: "ES256", use: "sig" },
  };
}

/**
 * The demo identity provider's signing key (ES256). Kept in the data folder so
 * tokens issued before a restart still verify; in-memory databases get a fresh one.
 */
export async function loadDemoKeys(dataDirectory: string | undefined): Promise<DemoKeys> {
  const path = dataDirectory ? join(dataDirectory, "demo-idp-key.jwk.json") : undefined;
  if (path && existsSync(path)) return keysOf(JSON.parse(readFileSync(path, "utf8")) as JWK);
  const privateJwk = await newPrivateJwk();
  if (path && dataDirectory) {
    mkdirSync(dataDirectory, { recursive: true });
    writeFileSync(path, JSON.stringify(privateJwk), { mode: 0o600 });
  }
  return keysOf(privateJwk);
}

/**
 * The same key kept in a shared database (DESIGN §15): a customer's token issued by one
 * instance's demo provider verifies on every other.
 */
export async function loadSharedDemoKeys(database: Database): Promise<DemoKeys> {
  const stored = await sharedSetting(database, "demo_idp_key", async () =>
    JSON.stringify(await newPrivateJwk()),
  );
  return keysOf(JSON.parse(stored) as JWK);
}
