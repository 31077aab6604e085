import { useStore } from "@nanostores/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";
import { canUsePasskeys } from "../../lib/passkeys";
import {
  $captcha,
  $isSigningIn,
  $isSolvingCaptcha,
  $loginError,
  $loginStage,
  $recaptchaSiteKey,
  openLogin,
  showRecaptcha,
  signIn,
  solveCaptcha,
} from "../../stores/panel-login";
import { $factorCheck, signInWithPasskey } from "../../stores/panel-login-factor";
import { LoginSecondStep } from "./LoginSecondStep";
import { PanelLayout } from "./PanelLayout";

/** A passkey alone, without the password (one the device keeps for this site), where the browser has passkeys. */
function PasskeyAlone({ isDisabled }: { isDisabled: boolean }) {
  const { t } = useTranslation();
  const check = useStore($factorCheck);
  const [isOffered] = useState(canUsePasskeys);
  if (!isOffered) return null;
  return (
    <div className="panel-factor__alone">
      <p className="muted panel-factor__or">{t("panel.factorOr")}</p>
      <button
        type="button"
        className="button button--ghost"
        disabled={isDisabled || check !== undefined}
        aria-busy={check === "passkey"}
        onClick={() => void signInWithPasskey()}
      >
        {check === "passkey" ? t("panel.passkeyWaiting") : t("panel.passkeySignIn")}
      </button>
    </div>
  );
}

/** /panel-login (spec §2, §4 "Operator session"). */
function PanelLoginContent() {
  const { t } = useTranslation();
  const passwordId = useId();
  const stage = useStore($loginStage);
  const captcha = useStore($captcha);
  const isSolving = useStore($isSolvingCaptcha);
  const isSubmitting = useStore($isSigningIn);
  const error = useStore($loginError);
  const recaptchaSiteKey = useStore($recaptchaSiteKey);
  const factorCheck = useStore($factorCheck);
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [isPasswordShown, setIsPasswordShown] = useState(false);
  const recaptchaSlot = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void openLogin();
  }, []);

  useEffect(() => {
    if (stage !== "form" || !recaptchaSiteKey || !recaptchaSlot.current) return;
    void showRecaptcha(recaptchaSlot.current, recaptchaSiteKey);
  }, [stage, recaptchaSiteKey]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    void signIn(username, password);
  };

  if (stage === "second-factor") {
    return (
      <div className="panel-login">
        <LoginSecondStep username={username.trim()} />
      </div>
    );
  }
  if (stage !== "form") {
    return (
      <p role="status" className="panel-refresh">
        {stage === "refreshing" ? t("panel.waiting") : t("panel.success")}
      </p>
    );
  }
  return (
    <div className="panel-login">
      <section className="card login" aria-labelledby="panel-login-title">
        <h1 id="panel-login-title">{t("panel.title")}</h1>
        <p className="muted">{t("panel.internalOnly")}</p>
        <form className="form" onSubmit={submit} noValidate>
          <label className="field">
            <span>{t("panel.login")}</span>
            <input
              value={username}
              onChange={(event) => setUsername(event.target.value)}
              autoComplete="username"
              required
            />
          </label>
          <div className="field">
            <label htmlFor={passwordId}>{t("panel.password")}</label>
            <span className="password">
              <input
                id={passwordId}
                type={isPasswordShown ? "text" : "password"}
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                autoComplete="current-password"
                required
              />
              <button
                type="button"
                className="button button--ghost"
                aria-pressed={isPasswordShown}
                onClick={() => setIsPasswordShown(!isPasswordShown)}
              >
                {isPasswordShown ? t("panel.hidePassword") : t("panel.showPassword")}
              </button>
            </span>
          </div>
          {recaptchaSiteKey ? (
            <div ref={recaptchaSlot} />
          ) : (
            <label className="checkbox captcha">
              <input
                type="checkbox"
                checked={captcha !== undefined || isSolving}
                disabled={isSolving}
                onChange={(event) => void solveCaptcha(event.target.checked)}
              />
              <span>
                {isSolving
                  ? t("panel.captchaWorking")
                  : captcha
                    ? `${t("panel.captcha")} · ${t("panel.captchaDone")}`
                    : t("panel.captcha")}
              </span>
            </label>
          )}
          {error && (
            <p className="form__error" role="alert">
              {error}
            </p>
          )}
          <button
            type="submit"
            className="button button--primary"
            disabled={isSubmitting || factorCheck !== undefined}
            aria-busy={isSubmitting}
          >
            {isSubmitting ? t("panel.loading") : t("panel.submit")}
          </button>
        </form>
        <PasskeyAlone isDisabled={isSubmitting} />
      </section>
    </div>
  );
}

export function PanelLogin() {
  return (
    <PanelLayout title={(t) => t("panel.signInTitle")} isSignedIn={false}>
      <PanelLoginContent />
    </PanelLayout>
  );
}
