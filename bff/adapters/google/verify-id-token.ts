import { errors, type JWTVerifyGetKey, jwtVerify } from "jose";
import { AppError } from "../../platform/errors";

export type VerifiedIdentity = {
  uid: string;
  email: string;
  photoURL: string | null;
  name: string | null;
  /** The ID token's `nonce` claim, when the sign-in was started with one (Yandex tokens have none). */
  nonce?: string;
};

export type IdTokenVerifier = {
  keys: JWTVerifyGetKey;
  issuers: string[];
  audience: string;
};

/**
 * Verifies a Google (or demo provider) ID token: signature against the JWKS, issuer,
 * audience = our client id, expiry, and a verified e-mail. The demo provider goes
 * through this same function with its own keys and issuer.
 */
export async function verifyIdToken(
  token: string,
  verifier: IdTokenVerifier,
  now: number,
): Promise<VerifiedIdentity> {
  try {
    const { payload } = await jwtVerify(token, verifier.keys, {
      issuer: verifier.issuers,
      audience: verifier.audience,
      algorithms: ["RS256", "ES256"],
      currentDate: new Date(now),
      clockTolerance: 60,
    });
    if (typeof payload.sub !== "string" || typeof payload.email !== "string") {
      throw new AppError("sign_in_token_incomplete");
    }
    if (payload.email_verified !== true) {
      throw new AppError("email_not_verified");
    }
    return {
      uid: payload.sub,
      email: payload.email,
      photoURL: typeof payload.picture === "string" ? payload.picture : null,
      name: typeof payload.name === "string" ? payload.name : null,
      nonce: typeof payload.nonce === "string" ? payload.nonce : undefined,
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof errors.JWTExpired) {
      throw new AppError("sign_in_expired");
    }
    throw new AppError("sign_in_unverifiable");
  }
}
