import { useStore } from "@nanostores/react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";
import { canUsePasskeys } from "../../lib/passkeys";
import { $loginError, $secondStep, backToPassword, type SecondStep } from "../../stores/panel-login";
import {
  $factorCheck,
  expireTicket,
  signInWithCode,
  signInWithPasskey,
} from "../../stores/panel-login-factor";

/** The ticket's end: back to the password form when it comes, whatever the operator is doing. */
function useTicketEnd(step: SecondStep | undefined) {
  useEffect(() => {
    if (!step) return;
    const timer = setTimeout(expireTicket, Math.max(0, step.deadline - Date.now()));
    return () => clearTimeout(timer);
  }, [step]);
}

/**
 * The sign-in's second step (DESIGN §12 "Staff second factor"): a passkey when the operator has
 * one, the authenticator app's code, or a recovery code instead.
 */
export function LoginSecondStep({ username }: { username: string }) {
  const { t } = useTranslation();
  const codeId = useId();
  const step = useStore($secondStep);
  const check = useStore($factorCheck);
  const error = useStore($loginError);
  const hasTotp = step?.methods.includes("totp") ?? false;
  const [kind, setKind] = useState<"totp" | "recovery">(hasTotp ? "totp" : "recovery");
  const [code, setCode] = useState("");
  useTicketEnd(step);
  if (!step) return null;
  // A browser without passkeys is offered the codes only.
  const hasPasskey = step.methods.includes("passkey") && canUsePasskeys();
  const isBusy = check !== undefined;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    void signInWithCode(kind, code);
  };
  const switchKind = () => {
    setKind(kind === "totp" ? "recovery" : "totp");
    setCode("");
    $loginError.set(undefined);
  };

  return (
    <section className="card login" aria-labelledby="second-step-title" aria-busy={isBusy}>
      <h1 id="second-step-title">{t("panel.factorTitle")}</h1>
      <p className="muted">{t("panel.factorSigningInAs", { username })}</p>
      {hasPasskey && (
        <div className="panel-factor__passkey">
          <button
            type="button"
            className="button button--primary"
            disabled={isBusy}
            aria-busy={check === "passkey"}
            onClick={() => void signInWithPasskey()}
          >
            {check === "passkey" ? t("panel.passkeyWaiting") : t("panel.factorUsePasskey")}
          </button>
          <p className="muted panel-factor__or">{t("panel.factorOr")}</p>
        </div>
      )}
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={codeId}>
            {kind === "totp" ? t("panel.factorTotpCode") : t("panel.factorRecoveryCode")}
          </label>
          <input
            id={codeId}
            className="panel-factor__code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            autoComplete="one-time-code"
            inputMode={kind === "totp" ? "numeric" : "text"}
            maxLength={kind === "totp" ? 7 : 64}
            spellCheck={false}
            autoCapitalize="off"
            aria-describedby={`${codeId}-hint`}
          />
          <span id={`${codeId}-hint`} className="muted panel-staff__hint">
            {kind === "totp" ? t("panel.factorTotpHint") : t("panel.factorRecoveryHint")}
          </span>
        </div>
        {error && (
          <p className="form__error" role="alert">
            {error}
          </p>
        )}
        <button
          type="submit"
          className="button button--primary"
          disabled={isBusy}
          aria-busy={check === "code"}
        >
          {check === "code" ? t("panel.loading") : t("panel.factorConfirm")}
        </button>
      </form>
      <div className="panel-factor__other">
        {hasTotp && (
          <button type="button" className="button button--ghost" disabled={isBusy} onClick={switchKind}>
            {kind === "totp" ? t("panel.factorUseRecovery") : t("panel.factorUseTotp")}
          </button>
        )}
        <button
          type="button"
          className="button button--ghost"
          disabled={isBusy}
          onClick={() => backToPassword()}
        >
          {t("panel.factorBack")}
        </button>
      </div>
    </section>
  );
}
