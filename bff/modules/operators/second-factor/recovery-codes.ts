import type { Database } from "../../../../db/database";
import { recoveryCodes } from "../../../../db/queries/second-factor";
import { recoveryCodeCount } from "./factor-rules";

// Lower-case letters and digits without look-alikes (0/o, 1/l/i): read off paper and typed.
const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";

/** One code: 10 characters (about 49 bits), shown as two groups of five. */
function newCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  const characters = Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("");
  return `${characters.slice(0, 5)}-${characters.slice(5)}`;
}

/** How a code is typed back matters not: letter case, spaces and dashes are dropped. */
const normalised = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");

/**
 * Codes are random and long, so a plain SHA-256 keeps them as safe as a slow hash would a
 * password, and lets a code be found by its hash (each is tried against the limits anyway).
 */
const hashOf = (code: string) => new Bun.CryptoHasher("sha256").update(normalised(code)).digest("hex");

/** A new set of codes in place of any earlier one; the codes are answered once and kept only hashed. */
export async function replaceRecoveryCodes(database: Database, operatorId: number, now: number) {
  const codes = Array.from({ length: recoveryCodeCount }, newCode);
  await recoveryCodes.deleteOfOperator(database, operatorId);
  for (const code of codes) await recoveryCodes.insert(database, operatorId, hashOf(code), now);
  return codes;
}

/** Spends a code of the operator's: true once per code, false for anything else. */
export async function spendRecoveryCode(database: Database, operatorId: number, code: string, now: number) {
  const typed = normalised(code);
  if (typed.length !== 10 || [...typed].some((character) => !alphabet.includes(character))) return false;
  return (await recoveryCodes.spend(database, operatorId, hashOf(code), now)).changes === 1;
}
