import { createRemoteJWKSet } from "jose";
import type { DemoKeys } from "../../adapters/demo-idp/keys";
import {
  createDemoIdentityProvider,
  type DemoIdentityProvider,
  demoGoogleClientId,
  demoIssuer,
  demoYandexClientId,
} from "../../adapters/demo-idp/provider";
import {
  type IdTokenVerifier,
  type VerifiedIdentity,
  verifyIdToken,
} from "../../adapters/google/verify-id-token";
import { verifyYandexToken, type YandexVerifier } from "../../adapters/yandex/fetch-user-info";
import type { Clock } from "../../platform/clock";
import type { Config } from "../../platform/config";
import { AppError } from "../../platform/errors";
import { type HttpClient, loopbackOrigin } from "../../platform/http-client";
import type { providerSettings } from "./model";

export const customerProviders = ["google.com", "yandex"] as const;
export type CustomerProvider = (typeof customerProviders)[number];

/** What the browser needs to start a sign-in (no secrets). */
export type ProviderSettings = typeof providerSettings.static;

export type IdentityProviders = {
  settings: ProviderSettings;
  demo: DemoIdentityProvider | undefined;
  verify(providerId: CustomerProvider, credential: string): Promise<VerifiedIdentity>;
};

/**
 * Each provider is real when its client id is configured, else (demo mode only) the
 * embedded demo provider stands in for it through the same verification code.
 */
export function createIdentityProviders(
  config: Config,
  keys: DemoKeys,
  clock: Clock,
  http: HttpClient,
): IdentityProviders {
  const demo = config.mode === "demo" ? createDemoIdentityProvider(keys, () => clock.now()) : undefined;
  const google: IdTokenVerifier =
    config.googleClientId || !demo
      ? {
          keys: createRemoteJWKSet(new URL("https://www.googleapis.com/oauth2/v3/certs")),
          issuers: ["https://accounts.google.com", "accounts.google.com"],
          audience: config.googleClientId ?? "",
        }
      : { keys: demo.jwks, issuers: [demoIssuer], audience: demoGoogleClientId };
  const yandexIsDemo = !config.yandexClientId && demo !== undefined;
  const yandex: YandexVerifier = yandexIsDemo
    ? { infoUrl: `${loopbackOrigin}/api/dev/idp/yandex/info`, clientId: demoYandexClientId }
    : { infoUrl: "https://login.yandex.ru/info", clientId: config.yandexClientId ?? "" };

  return {
    demo,
    settings: {
      google: { clientId: google.audience, isDemo: !config.googleClientId },
      yandex: {
        clientId: yandex.clientId,
        isDemo: yandexIsDemo,
        authorizeUrl: yandexIsDemo ? "/dev-idp" : "https://oauth.yandex.ru/authorize",
        infoUrl: yandexIsDemo ? "/api/dev/idp/yandex/info" : "https://login.yandex.ru/info",
      },
    },
    verify(providerId, credential) {
      if (!credential) throw new AppError("provider_credential_missing");
      return providerId === "yandex"
        ? verifyYandexToken(credential, yandex, http)
        : verifyIdToken(credential, google, clock.now());
    },
  };
}
