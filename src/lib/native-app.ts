type Bridge = { postMessage(message: string): void };

/**
 * Hands the Yandex user data to the native app's `yAuth` bridge (Android interface or
 * iOS message handler); false when the page is not inside the app.
 */
export function postYandexIdentityToApp(identity: object): boolean {
  const bridge = yandexBridge();
  if (!bridge) return false;
  bridge.postMessage(JSON.stringify(identity));
  return true;
}

function yandexBridge(): Bridge | undefined {
  const target = window as unknown as {
    yAuth?: Bridge;
    webkit?: { messageHandlers?: { yAuth?: Bridge } };
  };
  return target.yAuth ?? target.webkit?.messageHandlers?.yAuth;
}

/** Inside the native app, which starts the Yandex flow itself and checks its own `state`. */
export const isInsideNativeApp = () => yandexBridge() !== undefined;
