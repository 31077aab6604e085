type Bridge = { postMessage(message: string): void };

/**
 * Hands the Yandex user data to the native app's `yAuth` bridge (Android interface or
 * iOS message handler); false when the page is not inside the app.
 */
export function postYandexIdentityToApp(identity: object): boolean {
  const target = window as unknown as {
    yAuth?: Bridge;
    webkit?: { messageHandlers?: { yAuth?: Bridge } };
  };
  const bridge = target.yAuth ?? target.webkit?.messageHandlers?.yAuth;
  if (!bridge) return false;
  bridge.postMessage(JSON.stringify(identity));
  return true;
}
