import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { AccountSwitchPrompt } from "../../components/react/AccountSwitchPrompt";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { PrepaidBindingSlot } from "../../components/react/PrepaidBindingSlot";
import { Spinner } from "../../components/react/Spinner";
import { useTranslation } from "../../lib/i18n/use-translation";
import { heldAccount, keepCurrentAccount } from "../../stores/account-switch";
import { $yandexCallback, handleYandexReturn, switchToArrivingAccount } from "../../stores/yandex-callback";

type Props = { isMobile: boolean };

/** /yauth and /yauth-mobile: the provider returns here with access_token and state in the URL fragment. */
function YandexCallbackContent({ isMobile }: Props) {
  const { t } = useTranslation();
  const state = useStore($yandexCallback);

  useEffect(() => {
    void handleYandexReturn(isMobile);
  }, [isMobile]);

  return (
    <main id="main" className="screen screen--center">
      {state.step === "loading" && <Spinner label={t("common.loading")} />}
      {state.step === "loading" && <p>{t("yauth.loading")}</p>}
      {(state.step === "no-token" || state.step === "info-failed") && (
        <>
          <p role="alert">{t(state.step === "no-token" ? "yauth.noToken" : "yauth.infoFailed")}</p>
          {/* Nothing here can be retried in place: the provider's answer is used up or missing. */}
          <a className="button button--primary" href="/login">
            {t("yauth.signInAgain")}
          </a>
        </>
      )}
      {state.step === "not-this-attempt" && (
        <>
          <p role="alert">{t("yauth.notThisAttempt")}</p>
          <a className="button button--primary" href="/login">
            {t("yauth.signInAgain")}
          </a>
        </>
      )}
      {state.step === "asking" && (
        <AccountSwitchPrompt
          currentEmail={heldAccount().email}
          arrivingEmail={state.arriving.email}
          onSwitch={switchToArrivingAccount}
          onKeep={keepCurrentAccount}
        />
      )}
      {state.step === "success" && <p role="status">{t("yauth.success")}</p>}
      <PrepaidBindingSlot />
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
