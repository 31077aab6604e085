import { useStore } from "@nanostores/react";
import { useId, useState } from "react";
import { formatDateTime } from "../../../core/date-time";
import { HoldButton } from "../../components/react/HoldButton";
import { useTranslation } from "../../lib/i18n/use-translation";
import { canUsePasskeys } from "../../lib/passkeys";
import {
  $changes,
  addPasskey,
  clearChange,
  type Passkey,
  removePasskey,
  type Security,
} from "../../stores/panel-security";
import { ChangeError, Empty } from "./PanelStates";

function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const { t, language } = useTranslation();
  const key = `passkey-remove:${passkey.id}`;
  const change = useStore($changes, { keys: [key] })[key];
  return (
    <li className="panel-staff__member" aria-busy={change?.isBusy ?? false}>
      <div className="panel-staff__about">
        <p className="panel-staff__name">
          {/* The operator's own name for it: not a word of the screen to translate. */}
          <strong translate="no">{passkey.name}</strong>
        </p>
        <dl className="panel-audit__facts">
          <div>
            <dt>{t("panel.passkeyCreatedAt")}</dt>
            <dd>{formatDateTime(passkey.createdAt, language)}</dd>
          </div>
          <div>
            <dt>{t("panel.passkeyLastUsed")}</dt>
            <dd>
              {passkey.lastUsedAt === null
                ? t("panel.passkeyNeverUsed")
                : formatDateTime(passkey.lastUsedAt, language)}
            </dd>
          </div>
        </dl>
      </div>
      <div className="panel-staff__actions">
        <HoldButton
          label={t("panel.securityRemove")}
          hint={t("panel.passkeyHoldToRemove")}
          variant="danger"
          disabled={change?.isBusy ?? false}
          onConfirm={() => removePasskey(passkey).then(() => undefined)}
        />
      </div>
      {change?.error && <ChangeError text={change.error} />}
    </li>
  );
}

/** A name for the new passkey, then the browser's own prompt. */
function AddPasskey() {
  const { t } = useTranslation();
  const nameId = useId();
  const change = useStore($changes, { keys: ["passkey-add"] })["passkey-add"];
  const [name, setName] = useState("");
  const isBusy = change?.isBusy ?? false;
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (await addPasskey(name)) setName("");
  };
  return (
    <form className="form panel-security__form" onSubmit={submit} noValidate>
      <h3>{t("panel.passkeyAddTitle")}</h3>
      <div className="field">
        <label htmlFor={nameId}>{t("panel.passkeyName")}</label>
        <input
          id={nameId}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            if (change?.error) clearChange("passkey-add");
          }}
          maxLength={64}
          autoComplete="off"
          placeholder={t("panel.passkeyNameExample")}
          aria-describedby={`${nameId}-hint`}
        />
        <span id={`${nameId}-hint`} className="muted panel-staff__hint">
          {t("panel.passkeyNameHint")}
        </span>
      </div>
      {change?.error && <ChangeError text={change.error} />}
      <button type="submit" className="button button--primary" disabled={isBusy} aria-busy={isBusy}>
        {isBusy ? t("panel.passkeyWaiting") : t("panel.passkeyAdd")}
      </button>
    </form>
  );
}

export function PasskeysPart({ security }: { security: Security }) {
  const { t } = useTranslation();
  const [isSupported] = useState(canUsePasskeys);
  return (
    <section className="card" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{t("panel.passkeysTitle")}</h2>
      <p className="muted">{t("panel.passkeysAbout")}</p>
      {security.passkeys.length === 0 ? (
        <Empty>{t("panel.passkeysEmpty")}</Empty>
      ) : (
        <ul className="panel-staff__list" aria-label={t("panel.passkeysTitle")}>
          {security.passkeys.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} />
          ))}
        </ul>
      )}
      {isSupported ? <AddPasskey /> : <p className="muted">{t("panel.passkeysUnsupported")}</p>}
    </section>
  );
}
