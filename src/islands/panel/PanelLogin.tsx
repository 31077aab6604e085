import { useEffect, useId, useRef, useState } from "react";
import { type AltchaChallenge, solveAltcha } from "../../lib/captcha-solver";
import { useTranslation } from "../../lib/i18n/use-translation";
import { renderRecaptcha } from "../../lib/recaptcha";
import { refreshTokens, storeTokens } from "../../stores/panel-session";
import { PanelLayout } from "./PanelLayout";

type Stage = "refreshing" | "refreshed" | "form";

/** /panel-login (spec §2, §4 "Operator session"). */
function PanelLoginContent() {
  const { t } = useTranslation();
  const passwordId = useId();
  const [stage, setStage] = useState<Stage>("refreshing");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [isPasswordShown, setIsPasswordShown] = useState(false);
  const [captcha, setCaptcha] = useState<string | undefined>();
  const [isSolving, setIsSolving] = useState(false);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [recaptchaSiteKey, setRecaptchaSiteKey] = useState<string | undefined>();
  const recaptchaSlot = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // reCAPTCHA v2 replaces the built-in proof of work when the server has its keys.
    fetch("/api/auth/captcha")
      .then((response) => response.json() as Promise<{ provider?: string; siteKey?: string }>)
      .then((settings) => {
        if (settings.provider === "recaptcha" && settings.siteKey) setRecaptchaSiteKey(settings.siteKey);
      })
      .catch(() => undefined);
  }, []);

  useEffect(() => {
    if (stage !== "form" || !recaptchaSiteKey || !recaptchaSlot.current) return;
    renderRecaptcha(recaptchaSlot.current, recaptchaSiteKey, setCaptcha).catch(() =>
      setError(t("panel.loginFailed")),
    );
  }, [stage, recaptchaSiteKey, t]);

  useEffect(() => {
    // With a stored refresh token, try it first: 'Ожидание', then 'Успешно' and on to the search.
    void refreshTokens().then((isRefreshed) => {
      if (!isRefreshed) {
        setStage("form");
        return;
      }
      setStage("refreshed");
      location.assign("/panel-search");
    });
  }, []);

  const solveCaptcha = async (isChecked: boolean) => {
    if (!isChecked) {
      setCaptcha(undefined);
      return;
    }
    setIsSolving(true);
    try {
      const response = await fetch("/api/auth/captcha");
      setCaptcha(await solveAltcha((await response.json()) as AltchaChallenge));
    } catch {
      setError(t("panel.captchaFailed"));
    } finally {
      setIsSolving(false);
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!captcha) {
      setError(t("panel.captchaNotSolved"));
      return;
    }
    setIsSubmitting(true);
    setError(undefined);
    try {
      const response = await fetch("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username, password, captcha }),
      });
      if (!response.ok) {
        // The server's reason in the operator's language; the captcha is spent either way.
        setError(refusalText(response, t));
        setCaptcha(undefined);
        return;
      }
      storeTokens((await response.json()) as { accessToken: string; refreshToken: string });
      location.assign("/panel-search");
    } catch {
      setError(t("panel.loginFailed"));
    } finally {
      setIsSubmitting(false);
    }
  };

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
          <button type="submit" className="button button--primary" disabled={isSubmitting}>
            {isSubmitting ? t("panel.loading") : t("panel.submit")}
          </button>
        </form>
      </section>
    </div>
  );
}

/** Why the server refused the sign-in (its x-login-refusal header), in the operator's language. */
function refusalText(response: Response, t: ReturnType<typeof useTranslation>["t"]): string {
  const minutes = Math.max(1, Math.ceil(Number(response.headers.get("retry-after") ?? 60) / 60));
  switch (response.headers.get("x-login-refusal")) {
    case "captcha":
      return t("panel.captchaNotSolved");
    case "credentials":
      return t("panel.wrongCredentials");
    case "disabled":
      return t("panel.accountDisabled");
    case "cooldown":
      return t("panel.tooManySignIns", { minutes });
    case "busy":
      return t("panel.signInBusy");
    default:
      return t("panel.loginFailed");
  }
}

export function PanelLogin() {
  return (
    <PanelLayout title={(t) => t("panel.signInTitle")} isSignedIn={false}>
      <PanelLoginContent />
    </PanelLayout>
  );
}
