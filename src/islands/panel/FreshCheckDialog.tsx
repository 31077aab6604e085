import { useStore } from "@nanostores/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";
import { canUsePasskeys } from "../../lib/passkeys";
import {
  $freshCheck,
  cancelFreshCheck,
  confirmWithCode,
  confirmWithPasskey,
  confirmWithPassword,
  type FreshCheck,
} from "../../stores/panel-fresh-check";
import type { Security } from "../../stores/panel-security";
import { ChangeError } from "./PanelStates";

/**
 * The fresh check's dialog (DESIGN §12): the password, a passkey or the app's code, before a
 * factor is added or removed; the change goes on by itself once one is accepted.
 */
function Dialog({ check, security }: { check: FreshCheck; security: Security }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const passwordId = useId();
  const codeId = useId();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [canUsePasskey] = useState(() => security.passkeys.length > 0 && canUsePasskeys());
  const isBusy = check.checking !== undefined;

  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);

  const busyLabel = (way: FreshCheck["checking"], label: string) =>
    check.checking === way ? t("panel.loading") : label;
  return (
    <dialog
      ref={dialog}
      className="card prompt--modal panel-fresh"
      aria-labelledby="fresh-title"
      aria-busy={isBusy}
      onCancel={(event) => {
        // Escape closes it, as its Cancel button does; never while a check is under way.
        event.preventDefault();
        if (!isBusy) cancelFreshCheck();
      }}
    >
      <h2 id="fresh-title">{t("panel.factorTitle")}</h2>
      <p className="muted">{t("panel.freshAbout")}</p>
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void confirmWithPassword(password);
        }}
      >
        <div className="field">
          <label htmlFor={passwordId}>{t("panel.password")}</label>
          <input
            id={passwordId}
            type="password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            autoComplete="current-password"
          />
        </div>
        <button type="submit" className="button button--primary" disabled={isBusy}>
          {busyLabel("password", t("panel.freshConfirmPassword"))}
        </button>
      </form>
      {canUsePasskey && (
        <button
          type="button"
          className="button button--ghost"
          disabled={isBusy}
          aria-busy={check.checking === "passkey"}
          onClick={() => void confirmWithPasskey()}
        >
          {check.checking === "passkey" ? t("panel.passkeyWaiting") : t("panel.factorUsePasskey")}
        </button>
      )}
      {security.totp && (
        <form
          className="form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void confirmWithCode(code);
          }}
        >
          <div className="field">
            <label htmlFor={codeId}>{t("panel.factorTotpCode")}</label>
            <input
              id={codeId}
              className="panel-factor__code"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={7}
            />
          </div>
          <button type="submit" className="button button--ghost" disabled={isBusy}>
            {busyLabel("code", t("panel.freshConfirmCode"))}
          </button>
        </form>
      )}
      {check.error && <ChangeError text={check.error} />}
      <button type="button" className="button button--ghost" disabled={isBusy} onClick={cancelFreshCheck}>
        {t("panel.securityCancel")}
      </button>
    </dialog>
  );
}

export function FreshCheckDialog({ security }: { security: Security }) {
  const check = useStore($freshCheck);
  return check ? <Dialog check={check} security={security} /> : null;
}
