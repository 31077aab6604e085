import { spendSignInAttempt, startSignInAttempt } from "../lib/sign-in-attempt";
import { sessionKeys } from "../lib/storage-keys";
import { type Credentialed, providerSettings } from "./auth";

export type YandexCallbackPath = "/yauth" | "/yauth-mobile";

/**
 * Yandex: the browser goes to the provider's authorization page with a token-type
 * response and a random `state`, which must come back unchanged to the callback.
 */
export async function startYandexSignIn(callbackPath: YandexCallbackPath = "/yauth"): Promise<void> {
  const { yandex } = await providerSettings();
  const query = new URLSearchParams({
    response_type: "token",
    client_id: yandex.clientId,
    redirect_uri: `${location.origin}${callbackPath}`,
    state: startSignInAttempt(sessionKeys.yandexState),
  });
  if (yandex.isDemo) query.set("provider", "yandex");
  location.assign(`${yandex.authorizeUrl}?${query}`);
}

export type YandexAnswer = { token: string | null; isThisAttempt: boolean };

/**
 * The provider's answer in the callback's URL fragment. `isThisAttempt` is true only
 * when its `state` is the one this tab started with; the state is spent either way.
 */
export function readYandexAnswer(fragment: string): YandexAnswer {
  const answer = new URLSearchParams(fragment.replace(/^#/, ""));
  const isThisAttempt = spendSignInAttempt(sessionKeys.yandexState, answer.get("state"));
  return { token: answer.get("access_token"), isThisAttempt };
}

/** Who the token belongs to, from Yandex's info endpoint (the server asks again itself). */
export async function identityFromYandexToken(token: string): Promise<Credentialed | undefined> {
  const { yandex } = await providerSettings();
  const response = await fetch(`${yandex.infoUrl}?format=json`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!response.ok) return undefined;
  const info = (await response.json()) as {
    id?: string;
    default_email?: string;
    default_avatar_id?: string;
    is_avatar_empty?: boolean;
  };
  if (!info.id || !info.default_email) return undefined;
  const photoURL =
    info.default_avatar_id && !info.is_avatar_empty
      ? `https://avatars.yandex.net/get-yapic/${info.default_avatar_id}/islands-200`
      : "";
  return { uid: info.id, email: info.default_email, photoURL, providerId: "yandex", credential: token };
}
