type GoogleAccounts = {
  accounts: {
    id: {
      initialize(options: {
        client_id: string;
        callback: (response: { credential: string }) => void;
        ux_mode: "popup";
        nonce: string;
      }): void;
      renderButton(parent: HTMLElement, options: Record<string, unknown>): void;
    };
  };
};

let script: Promise<GoogleAccounts> | undefined;

function loadScript(): Promise<GoogleAccounts> {
  script ??= new Promise((resolve, reject) => {
    const element = document.createElement("script");
    element.src = "https://accounts.google.com/gsi/client";
    element.async = true;
    element.onload = () => resolve((window as unknown as { google: GoogleAccounts }).google);
    element.onerror = () => reject(new Error("Google Identity Services did not load"));
    document.head.append(element);
  });
  return script;
}

/**
 * Google Identity Services renders its own button, which opens Google's popup
 * (500×600) and hands back an ID token; used when GOOGLE_CLIENT_ID is configured.
 * Each attempt carries a fresh nonce from `startAttempt`: after every answer the
 * client is initialized again (Google keeps the last configuration) for the next one.
 */
export async function loadGoogleButton(
  parent: HTMLElement,
  clientId: string,
  startAttempt: () => string,
  onCredential: (credential: string) => void,
) {
  const google = await loadScript();
  const initialize = () =>
    google.accounts.id.initialize({
      client_id: clientId,
      ux_mode: "popup",
      nonce: startAttempt(),
      callback: (response) => {
        onCredential(response.credential);
        initialize();
      },
    });
  initialize();
  google.accounts.id.renderButton(parent, {
    type: "standard",
    theme: "filled_black",
    size: "large",
    shape: "pill",
    width: 240,
  });
}
