/**
 * Solves an ALTCHA proof-of-work challenge in the browser: finds the number whose
 * SHA-256 with the salt gives the challenge, and returns the payload the server checks.
 * (The protocol of altcha-lib; the solver is a few lines, so the panel ships no widget.)
 */
export type AltchaChallenge = {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
};

/** Digests run this many at a time: one await per hash would spend most of the time waiting. */
const batchSize = 256;

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++)
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

function sameBytes(digest: ArrayBuffer, target: Uint8Array): boolean {
  const bytes = new Uint8Array(digest);
  for (let index = 0; index < target.length; index++) if (bytes[index] !== target[index]) return false;
  return true;
}

export async function solveAltcha(challenge: AltchaChallenge): Promise<string | undefined> {
  const encoder = new TextEncoder();
  const target = hexToBytes(challenge.challenge);
  const max = challenge.maxnumber ?? 1_000_000;
  for (let start = 0; start <= max; start += batchSize) {
    const numbers = Array.from(
      { length: Math.min(batchSize, max - start + 1) },
      (_, offset) => start + offset,
    );
    const digests = await Promise.all(
      numbers.map((number) => crypto.subtle.digest("SHA-256", encoder.encode(challenge.salt + number))),
    );
    const found = digests.findIndex((digest) => sameBytes(digest, target));
    if (found >= 0) {
      return btoa(
        JSON.stringify({
          algorithm: challenge.algorithm,
          challenge: challenge.challenge,
          number: numbers[found],
          salt: challenge.salt,
          signature: challenge.signature,
        }),
      );
    }
  }
  return undefined;
}
