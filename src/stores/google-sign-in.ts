import { spendSignInAttempt, startSignInAttempt } from "../lib/sign-in-attempt";
import { sessionKeys } from "../lib/storage-keys";
import type { Credentialed } from "./auth";

const popupFeatures = "width=500,height=600,menubar=no,toolbar=no";

/** A fresh nonce for the next Google sign-in from this tab; Google echoes it in the ID token. */
export const startGoogleAttempt = () => startSignInAttempt(sessionKeys.googleNonce);

/**
 * The demo provider's popup stands in for Google's: it posts the signed ID token back
 * to this window. Resolves undefined when the popup is blocked or closed (spec: a
 * popup failure is only logged).
 */
export function demoGooglePopup(): Promise<string | undefined> {
  const query = new URLSearchParams({ provider: "google.com", nonce: startGoogleAttempt() });
  const popup = window.open(`/dev-idp?${query}`, "kannt-demo-idp", popupFeatures);
  if (!popup) {
    console.warn("Google sign-in popup was blocked");
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== location.origin || event.data?.type !== "kannt-demo-idp") return;
      cleanup();
      resolve(typeof event.data.credential === "string" ? event.data.credential : undefined);
    };
    const watch = setInterval(() => {
      if (!popup.closed) return;
      clearInterval(watch);
      // The popup posts its answer and closes at once; on a busy machine the close can be
      // seen before the message is delivered. Give the answer a moment before giving up.
      closedGrace = setTimeout(() => {
        cleanup();
        console.warn("Google sign-in popup was closed without signing in");
        resolve(undefined);
      }, 1500);
    }, 500);
    let closedGrace: ReturnType<typeof setTimeout> | undefined;
    const cleanup = () => {
      clearInterval(watch);
      clearTimeout(closedGrace);
      window.removeEventListener("message", onMessage);
    };
    window.addEventListener("message", onMessage);
  });
}

type GooglePayload = { sub?: unknown; email?: unknown; picture?: unknown; nonce?: unknown };

function payloadOf(credential: string): GooglePayload | undefined {
  try {
    const base64 = (credential.split(".")[1] ?? "").replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(atob(base64)) as GooglePayload;
  } catch {
    return undefined;
  }
}

export type GoogleAnswer = { identity: Credentialed } | { problem: "not-this-attempt" | "unreadable" };

/**
 * The identity in a Google ID token, accepted only when its `nonce` is the one this
 * tab's attempt started with (the attempt is spent either way). The server verifies
 * the signature and checks the nonce again.
 */
export function acceptGoogleCredential(credential: string): GoogleAnswer {
  const payload = payloadOf(credential);
  const nonce = typeof payload?.nonce === "string" ? payload.nonce : undefined;
  if (!spendSignInAttempt(sessionKeys.googleNonce, nonce)) return { problem: "not-this-attempt" };
  if (typeof payload?.sub !== "string" || typeof payload.email !== "string") return { problem: "unreadable" };
  return {
    identity: {
      uid: payload.sub,
      email: payload.email,
      photoURL: typeof payload.picture === "string" ? payload.picture : "",
      providerId: "google.com",
      credential,
      nonce,
    },
  };
}
