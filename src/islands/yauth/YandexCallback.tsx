import { useEffect, useState } from "react";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { Spinner } from "../../components/react/Spinner";
import { useTranslation } from "../../lib/i18n/use-translation";
import { storageKeys, writeStorage } from "../../lib/storage-keys";
import { type Credentialed, finishSignIn, providerSettings } from "../../stores/auth";

type Props = { isMobile: boolean };
type State = "loading" | "no-token" | "info-failed" | "success";

type YandexBridge = { postMessage(message: string): void };

/** Hands the user data to the native app's `yAuth` bridge (Android interface or iOS message handler). */
function postToNativeApp(identity: Credentialed): boolean {
  const target = window as unknown as {
    yAuth?: YandexBridge;
    webkit?: { messageHandlers?: { yAuth?: YandexBridge } };
  };
  const bridge = target.yAuth ?? target.webkit?.messageHandlers?.yAuth;
  if (!bridge) return false;
  bridge.postMessage(JSON.stringify(identity));
  return true;
}

async function identityFromToken(token: string): Promise<Credentialed | undefined> {
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

/** /yauth and /yauth-mobile: the provider returns here with access_token in the URL fragment. */
function YandexCallbackContent({ isMobile }: Props) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>("loading");

  useEffect(() => {
    const token = new URLSearchParams(location.hash.slice(1)).get("access_token");
    if (!token) {
      setState("no-token");
      return;
    }
    writeStorage(storageKeys.yandexToken, token);
    identityFromToken(token)
      .catch(() => undefined)
      .then(async (identity) => {
        if (!identity) {
          setState("info-failed");
          return;
        }
        if (isMobile) {
          postToNativeApp(identity);
          setState("success");
          return;
        }
        setState("success");
        await finishSignIn(identity);
      });
  }, [isMobile]);

  return (
    <main id="main" className="screen screen--center">
      {state === "loading" && <Spinner label={t("common.loading")} />}
      {state === "loading" && <p>{t("yauth.loading")}</p>}
      {state === "no-token" && <p role="alert">{t("yauth.noToken")}</p>}
      {state === "info-failed" && <p role="alert">{t("yauth.infoFailed")}</p>}
      {state === "success" && <p role="status">{t("yauth.success")}</p>}
    </main>
  );
}

export function YandexCallback(props: Props) {
  return (
    <I18nBoundary>
      <YandexCallbackContent {...props} />
    </I18nBoundary>
  );
}
