import { useStore } from "@nanostores/react";
import { useEffect, useId, useRef, useState } from "react";
import { formatDateTime } from "../../../core/date-time";
import { HoldButton } from "../../components/react/HoldButton";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $changes,
  $totpSetup,
  cancelTotp,
  clearChange,
  confirmTotp,
  removeTotp,
  type Security,
  startTotp,
  type TotpSetup,
} from "../../stores/panel-security";
import { ChangeError } from "./PanelStates";

/** The secret in groups of four, as an app's "enter a setup key" field is easiest typed from. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

/** The QR code and the secret to type by hand, then one of the app's codes to turn it on. */
function Setup({ setup }: { setup: TotpSetup }) {
  const { t } = useTranslation();
  const codeId = useId();
  const change = useStore($changes, { keys: ["totp-confirm"] })["totp-confirm"];
  const [code, setCode] = useState("");
  const title = useRef<HTMLHeadingElement>(null);
  const isBusy = change?.isBusy ?? false;
  // Mounted anew for every secret: the operator is taken to it at once.
  useEffect(() => title.current?.focus(), []);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    void confirmTotp(code);
  };
  return (
    <div className="panel-totp">
      <h3 ref={title} tabIndex={-1}>
        {t("panel.totpSetupTitle")}
      </h3>
      <ol className="panel-totp__steps">
        <li>
          <p>{t("panel.totpScan")}</p>
          <img
            className="panel-totp__qr"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
            alt={t("panel.totpQrAlt")}
            width={200}
            height={200}
          />
        </li>
        <li>
          <p>{t("panel.totpTypeKey")}</p>
          <label className="field panel-totp__key">
            <span>{t("panel.totpSecret")}</span>
            {/* Wraps on a phone rather than hiding its end: a 32-letter key is wider than one. */}
            <textarea
              value={grouped(setup.secret)}
              readOnly
              rows={2}
              spellCheck={false}
              autoComplete="off"
              onFocus={(event) => event.currentTarget.select()}
            />
          </label>
          <p>
            <a href={setup.uri}>{t("panel.totpOpenApp")}</a>
          </p>
        </li>
        <li>
          <form className="form panel-security__form" onSubmit={submit} noValidate>
            <div className="field">
              <label htmlFor={codeId}>{t("panel.totpCode")}</label>
              <input
                id={codeId}
                className="panel-factor__code"
                value={code}
                onChange={(event) => {
                  setCode(event.target.value);
                  if (change?.error) clearChange("totp-confirm");
                }}
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={7}
                spellCheck={false}
              />
            </div>
            {change?.error && <ChangeError text={change.error} />}
            <div className="panel-security__buttons">
              <button type="submit" className="button button--primary" disabled={isBusy} aria-busy={isBusy}>
                {isBusy ? t("panel.loading") : t("panel.totpConfirm")}
              </button>
              <button type="button" className="button button--ghost" disabled={isBusy} onClick={cancelTotp}>
                {t("panel.securityCancel")}
              </button>
            </div>
          </form>
        </li>
      </ol>
    </div>
  );
}

/** The authenticator app: on since when (and Remove), being set up, or the way to set it up. */
export function TotpPart({ security }: { security: Security }) {
  const { t, language } = useTranslation();
  const setup = useStore($totpSetup);
  const changes = useStore($changes, { keys: ["totp-start", "totp-remove"] });
  const starting = changes["totp-start"];
  const removing = changes["totp-remove"];
  return (
    <section className="card" aria-labelledby="totp-title">
      <h2 id="totp-title">{t("panel.totpTitle")}</h2>
      {security.totp ? (
        <>
          <p>{t("panel.totpOnSince", { when: formatDateTime(security.totp.enabledAt, language) })}</p>
          <HoldButton
            label={t("panel.securityRemove")}
            hint={t("panel.totpHoldToRemove")}
            variant="danger"
            disabled={removing?.isBusy ?? false}
            onConfirm={() => removeTotp().then(() => undefined)}
          />
          {removing?.error && <ChangeError text={removing.error} />}
        </>
      ) : setup ? (
        <Setup key={setup.secret} setup={setup} />
      ) : (
        <>
          <p className="muted">{t("panel.totpAbout")}</p>
          <button
            type="button"
            className="button button--primary"
            disabled={starting?.isBusy ?? false}
            aria-busy={starting?.isBusy ?? false}
            onClick={() => void startTotp()}
          >
            {starting?.isBusy ? t("panel.loading") : t("panel.totpSetUp")}
          </button>
          {starting?.error && <ChangeError text={starting.error} />}
        </>
      )}
    </section>
  );
}
