import { createLocalJWKSet, jwtVerify, SignJWT } from "jose";
import type { DemoKeys } from "./keys";

/** Values the demo provider stamps into its tokens, standing in for Google's and Yandex's. */
export const demoIssuer = "https://demo-idp.kannt.local";
export const demoGoogleClientId = "kannt-demo-google-client";
export const demoYandexClientId = "kannt-demo-yandex-client";

export type DemoGoogleClaims = {
  uid: string;
  email: string;
  name?: string | null;
  picture?: string | null;
  audience?: string;
  emailVerified?: boolean;
  expiresInSeconds?: number;
  issuedAt?: number;
  /** Echoed as the `nonce` claim, as Google does for the nonce its sign-in was started with. */
  nonce?: string;
};

export type DemoYandexClaims = { uid: string; email: string; name?: string | null; clientId?: string };

/**
 * The embedded identity provider of demo mode: it signs real tokens with a local
 * key, which the server verifies through the same code paths as Google's and Yandex's.
 */
export function createDemoIdentityProvider(keys: DemoKeys, now: () => number) {
  const jwks = createLocalJWKSet({ keys: [keys.publicJwk] });
  const sign = (
    claims: Record<string, unknown>,
    subject: string,
    audience: string,
    issuedAt: number,
    lifetime: number,
  ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: keys.publicJwk.kid })
      .setIssuer(demoIssuer)
      .setSubject(subject)
      .setAudience(audience)
      .setIssuedAt(Math.floor(issuedAt / 1000))
      .setExpirationTime(Math.floor(issuedAt / 1000) + lifetime)
      .sign(keys.privateKey);

  return {
    jwks,
    publicJwks: { keys: [keys.publicJwk] },
    signGoogleIdToken(claims: DemoGoogleClaims): Promise<string> {
      return sign(
        {
          email: claims.email,
          email_verified: claims.emailVerified ?? true,
          name: claims.name ?? undefined,
          picture: claims.picture ?? undefined,
          nonce: claims.nonce,
        },
        claims.uid,
        claims.audience ?? demoGoogleClientId,
        claims.issuedAt ?? now(),
        claims.expiresInSeconds ?? 3600,
      );
    },
    signYandexToken(claims: DemoYandexClaims): Promise<string> {
      return sign(
        {
          email: claims.email,
          name: claims.name ?? undefined,
          client_id: claims.clientId ?? demoYandexClientId,
        },
        claims.uid,
        "yandex-info",
        now(),
        3600,
      );
    },
    /** What Yandex's info endpoint would answer for this token, or undefined when it is not ours. */
    async yandexInfo(token: string) {
      try {
        const { payload } = await jwtVerify(token, jwks, {
          issuer: demoIssuer,
          audience: "yandex-info",
          currentDate: new Date(now()),
        });
        return {
          id: payload.sub,
          login: String(payload.email).split("@")[0],
          client_id: payload.client_id,
          default_email: payload.email,
          emails: [payload.email],
          default_avatar_id: "0/0-0",
          is_avatar_empty: true,
          real_name: payload.name ?? null,
        };
      } catch {
        return undefined;
      }
    },
  };
}

export type DemoIdentityProvider = ReturnType<typeof createDemoIdentityProvider>;
