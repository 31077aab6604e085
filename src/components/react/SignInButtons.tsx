import { useEffect, useRef, useState } from "react";
import { loadGoogleButton } from "../../lib/google-identity";
import { useTranslation } from "../../lib/i18n/use-translation";
import { providerSettings } from "../../stores/auth";
import { demoGooglePopup, startGoogleAttempt } from "../../stores/google-sign-in";
import { finishGoogleSignIn } from "../../stores/sign-in-flow";
import { startYandexSignIn } from "../../stores/yandex-sign-in";

type Props = { target?: string };

/**
 * A provider's mark beside the button text, from the page's symbols (App.astro's
 * ProviderMarkSymbols: the shapes stay out of the JavaScript); hidden from assistive
 * technology, the text names the button.
 */
function Mark({ name }: { name: "google" | "yandex" }) {
  return (
    <svg className="provider-mark" width="20" height="20" aria-hidden="true" focusable="false">
      <use href={`#provider-mark-${name}`} />
    </svg>
  );
}

/** The two sign-in buttons of spec §2: Google (popup) and Yandex (redirect to the provider). */
export function SignInButtons({ target = "/profile" }: Props) {
  const { t } = useTranslation();
  const [isBusy, setIsBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [realGoogle, setRealGoogle] = useState<string | undefined>();
  const googleSlot = useRef<HTMLDivElement>(null);

  useEffect(() => {
    providerSettings()
      .then((settings) => {
        if (!settings.google.isDemo) setRealGoogle(settings.google.clientId);
      })
      .catch((error) => console.error("sign-in settings failed", error));
  }, []);

  const signInWithGoogle = async (credential: string) => {
    setProblem(undefined);
    const outcome = await finishGoogleSignIn(credential, target);
    if (outcome === "not-this-attempt" || outcome === "unreadable") setProblem(t("auth.googleNotUsed"));
  };
  // Google's button is rendered once; it calls the latest handler through this ref.
  const onGoogleCredential = useRef(signInWithGoogle);
  onGoogleCredential.current = signInWithGoogle;

  useEffect(() => {
    if (!realGoogle || !googleSlot.current) return;
    loadGoogleButton(googleSlot.current, realGoogle, startGoogleAttempt, (credential) => {
      void onGoogleCredential.current(credential);
    }).catch((error) => console.error("Google sign-in failed to load", error));
  }, [realGoogle]);

  const signInWithDemoGoogle = async () => {
    setIsBusy(true);
    const credential = await demoGooglePopup();
    if (credential) await signInWithGoogle(credential);
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
          <Mark name="google" />
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
        <Mark name="yandex" />
        {t("auth.yandex")}
      </button>
      {problem && (
        <p className="form__error sign-in__problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
