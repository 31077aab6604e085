import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomToken } from "./random";

/**
 * A secret generated once and kept in the data folder, so restarts keep signed
 * tokens valid without anyone having to configure a value in demo mode.
 */
export function readOrCreateSecret(dataDirectory: string, name: string): string {
  const path = join(dataDirectory, `${name}.secret`);
  if (existsSync(path)) {
    const stored = readFileSync(path, "utf8").trim();
    if (stored.length >= 32) return stored;
  }
  mkdirSync(dataDirectory, { recursive: true });
  const secret = randomToken(48);
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return secret;
}
