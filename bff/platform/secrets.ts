import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomToken } from "./random";

/**
 * A secret generated once and kept in the data folder, so restarts keep signed
 * tokens valid without anyone having to configure a value in demo mode. `generate` makes
 * a value of another shape (the demo YooKassa shop id is digits, as a real one is); a
 * stored value shorter than `minimumLength` is not one it made, and is made again.
 */
export function readOrCreateSecret(
  dataDirectory: string,
  name: string,
  generate: () => string = () => randomToken(48),
  minimumLength = 32,
): string {
  const path = join(dataDirectory, `${name}.secret`);
  if (existsSync(path)) {
    const stored = readFileSync(path, "utf8").trim();
    if (stored.length >= minimumLength) return stored;
  }
  mkdirSync(dataDirectory, { recursive: true });
  const secret = generate();
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return secret;
}
