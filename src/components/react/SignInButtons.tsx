import { useEffect, useRef, useState } from "react";
import { loadGoogleButton } from "../../lib/google-identity";
import { useTranslation } from "../../lib/i18n/use-translation";
import { finishSignIn, providerSettings } from "../../stores/auth";
import {
  demoGooglePopup,
  identityFromGoogleCredential,
  startYandexSignIn,
} from "../../stores/sign-in-providers";

type Props = { target?: string };

/** The two sign-in buttons of spec §2: Google (popup) and Yandex (redirect to the provider). */
export function SignInButtons({ target = "/profile" }: Props) {
  const { t } = useTranslation();
  const [isBusy, setIsBusy] = useState(false);
  const [realGoogle, setRealGoogle] = useState<string | undefined>();
  const googleSlot = useRef<HTMLDivElement>(null);

  useEffect(() => {
    providerSettings()
      .then((settings) => {
        if (!settings.google.isDemo) setRealGoogle(settings.google.clientId);
      })
      .catch((error) => console.error("sign-in settings failed", error));
  }, []);

  useEffect(() => {
    if (!realGoogle || !googleSlot.current) return;
    loadGoogleButton(googleSlot.current, realGoogle, (credential) => {
      const identity = identityFromGoogleCredential(credential);
      if (identity) void finishSignIn(identity, target);
    }).catch((error) => console.error("Google sign-in failed to load", error));
  }, [realGoogle, target]);

  const signInWithDemoGoogle = async () => {
    setIsBusy(true);
    const identity = await demoGooglePopup();
    if (identity) await finishSignIn(identity, target);
    setIsBusy(false);
  };

  return (
    <div className="sign-in">
      {realGoogle ? (
        <div ref={googleSlot} className="sign-in__google" />
      ) : (
        <button
          type="button"
          className="button button--provider"
          disabled={isBusy}
          onClick={signInWithDemoGoogle}
        >
          {t("auth.google")}
        </button>
      )}
      <button
        type="button"
        className="button button--provider"
        disabled={isBusy}
        onClick={() => {
          setIsBusy(true);
          startYandexSignIn().catch((error) => {
            console.error("Yandex sign-in failed to start", error);
            setIsBusy(false);
          });
        }}
      >
        {t("auth.yandex")}
      </button>
    </div>
  );
}
