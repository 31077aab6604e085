import type { Credentialed } from "./auth";
import { providerSettings } from "./auth";

const popupFeatures = "width=500,height=600,menubar=no,toolbar=no";

/**
 * The demo provider's popup stands in for Google's: it posts the signed token back
 * to this window. Resolves undefined when the popup is blocked or closed (spec: a
 * popup failure is only logged).
 */
export function demoGooglePopup(): Promise<Credentialed | undefined> {
  const popup = window.open("/dev-idp?provider=google.com", "kannt-demo-idp", popupFeatures);
  if (!popup) {
    console.warn("Google sign-in popup was blocked");
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== location.origin || event.data?.type !== "kannt-demo-idp") return;
      cleanup();
      resolve(event.data.identity as Credentialed);
    };
    const watch = setInterval(() => {
      if (!popup.closed) return;
      cleanup();
      console.warn("Google sign-in popup was closed without signing in");
      resolve(undefined);
    }, 500);
    const cleanup = () => {
      clearInterval(watch);
      window.removeEventListener("message", onMessage);
    };
    window.addEventListener("message", onMessage);
  });
}

/** Yandex: the browser goes to the provider's authorization page with a token-type response. */
export async function startYandexSignIn(): Promise<void> {
  const { yandex } = await providerSettings();
  const query = new URLSearchParams({
    response_type: "token",
    client_id: yandex.clientId,
    redirect_uri: `${location.origin}/yauth`,
  });
  if (yandex.isDemo) query.set("provider", "yandex");
  location.assign(`${yandex.authorizeUrl}?${query}`);
}

/** Reads the fields of a Google ID token's payload (the server verifies the signature). */
export function identityFromGoogleCredential(credential: string): Credentialed | undefined {
  try {
    const payload = JSON.parse(
      atob((credential.split(".")[1] ?? "").replace(/-/g, "+").replace(/_/g, "/")),
    ) as {
      sub?: string;
      email?: string;
      picture?: string;
    };
    if (!payload.sub || !payload.email) return undefined;
    return {
      uid: payload.sub,
      email: payload.email,
      photoURL: payload.picture ?? "",
      providerId: "google.com",
      credential,
    };
  } catch {
    return undefined;
  }
}
