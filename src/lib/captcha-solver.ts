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

export async function solveAltcha(challenge: AltchaChallenge): Promise<string | undefined> {
  const encoder = new TextEncoder();
  const max = challenge.maxnumber ?? 1_000_000;
  for (let number = 0; number <= max; number++) {
    const digest = await crypto.subtle.digest("SHA-256", encoder.encode(challenge.salt + number));
    const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    if (hex === challenge.challenge) {
      return btoa(
        JSON.stringify({
          algorithm: challenge.algorithm,
          challenge: challenge.challenge,
          number,
          salt: challenge.salt,
          signature: challenge.signature,
        }),
      );
    }
  }
  return undefined;
}
