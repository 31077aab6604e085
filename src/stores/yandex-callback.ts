import { atom } from "nanostores";
import { isInsideNativeApp, postYandexIdentityToApp } from "../lib/native-app";
import { storageKeys, writeStorage } from "../lib/storage-keys";
import { mustAskBeforeSwitching } from "./account-switch";
import type { Credentialed } from "./auth";
import { finishSignIn } from "./sign-in-flow";
import { identityFromYandexToken, readYandexAnswer } from "./yandex-sign-in";

export type YandexCallbackState =
  | { step: "loading" | "no-token" | "not-this-attempt" | "info-failed" | "success" }
  | { step: "asking"; arriving: Credentialed };

export const $yandexCallback = atom<YandexCallbackState>({ step: "loading" });

let isMobileCallback = false;

/** The token is kept and used only from here on: after the state check and, if needed, the switch question. */
async function proceed(identity: Credentialed): Promise<void> {
  writeStorage(storageKeys.yandexToken, identity.credential);
  $yandexCallback.set({ step: "success" });
  if (isMobileCallback) postYandexIdentityToApp(identity);
  else await finishSignIn(identity);
}

/**
 * /yauth and /yauth-mobile: the provider returns with access_token and state in the
 * fragment. An answer this tab did not ask for is refused without touching storage.
 */
export async function handleYandexReturn(isMobile: boolean): Promise<void> {
  isMobileCallback = isMobile;
  const answer = readYandexAnswer(location.hash);
  // The token should not stay in the address bar or the history.
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  if (!answer.token) {
    $yandexCallback.set({ step: "no-token" });
    return;
  }
  // The native app opens Yandex itself and keeps its own state; its callback page only
  // hands the identity over. Anywhere else the answer must be this tab's own attempt.
  const isNativeHandOver = isMobile && isInsideNativeApp();
  if (!answer.isThisAttempt && !isNativeHandOver) {
    $yandexCallback.set({ step: "not-this-attempt" });
    return;
  }
  const identity = await identityFromYandexToken(answer.token).catch(() => undefined);
  if (!identity) {
    $yandexCallback.set({ step: "info-failed" });
    return;
  }
  if (mustAskBeforeSwitching(identity)) {
    $yandexCallback.set({ step: "asking", arriving: identity });
    return;
  }
  await proceed(identity);
}

export async function switchToArrivingAccount(): Promise<void> {
  const state = $yandexCallback.get();
  if (state.step === "asking") await proceed(state.arriving);
}
