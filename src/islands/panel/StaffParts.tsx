import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";
import type { Refusal } from "../../stores/panel-change";
import { $staffCreation, createOperator, type Revealed, type Role } from "../../stores/panel-staff";
import { refusalKey, roleKeys, roles } from "./staff-words";

/** The role chooser of the create form and of each operator's row. */
export function RoleSelect({
  value,
  onChange,
  disabled = false,
  className = "",
}: {
  value: Role;
  onChange: (role: Role) => void;
  disabled?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <label className={`field ${className}`.trim()}>
      <span>{t("panel.staffRole")}</span>
      <select value={value} disabled={disabled} onChange={(event) => onChange(event.target.value as Role)}>
        {roles.map((option) => (
          <option key={option} value={option}>
            {t(roleKeys[option])}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The screen's reason, with the server's own message under it when it sent one. */
export function RefusalMessage({ refusal }: { refusal: Refusal }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="form__error panel-staff__refusal">
      <p>{t(refusalKey(refusal))}</p>
      {refusal.detail && (
        <p className="panel-staff__detail">
          {t("panel.staffServerSays")} {refusal.detail}
        </p>
      )}
    </div>
  );
}

/** The made password, once: a copy button, and the words that it will not come back. */
export function OncePassword({ revealed, onDismiss }: { revealed: Revealed; onDismiss: () => void }) {
  const { t } = useTranslation();
  const [copy, setCopy] = useState<"copied" | "failed" | undefined>();
  const title = useRef<HTMLHeadingElement>(null);
  // Mounted anew for every password (keyed by it): the operator is taken to it at once.
  useEffect(() => title.current?.focus(), []);
  const copyPassword = async () => {
    try {
      await navigator.clipboard.writeText(revealed.password);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  };
  return (
    <section className="card card--warning panel-once" aria-labelledby="once-title">
      <h2 id="once-title" ref={title} tabIndex={-1}>
        {t("panel.staffPasswordFor", { username: revealed.username })}
      </h2>
      <p>{t("panel.staffPasswordOnce")}</p>
      <div className="panel-once__secret">
        <label className="field panel-once__field">
          <span>{t("panel.staffNewPassword")}</span>
          <input
            className="panel-once__password"
            value={revealed.password}
            readOnly
            spellCheck={false}
            autoComplete="off"
            onFocus={(event) => event.currentTarget.select()}
          />
        </label>
        <button type="button" className="button button--primary" onClick={() => void copyPassword()}>
          {t("panel.staffCopy")}
        </button>
      </div>
      <p role="status" className={copy === "failed" ? "form__error" : "muted"}>
        {copy === "copied" ? t("panel.staffCopied") : copy === "failed" ? t("panel.staffCopyFailed") : ""}
      </p>
      <button type="button" className="button button--ghost" onClick={onDismiss}>
        {t("panel.staffDismiss")}
      </button>
    </section>
  );
}

/** The new operator's form; what is typed stays here until the operator exists. */
export function CreateForm() {
  const { t } = useTranslation();
  const { isBusy, refusal } = useStore($staffCreation);
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<Role>("support");
  const [password, setPassword] = useState("");

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!(await createOperator({ username, role, password }))) return;
    setUsername("");
    setPassword("");
    setRole("support");
  };

  return (
    <section className="card" aria-labelledby="staff-create">
      <h2 id="staff-create">{t("panel.staffCreateTitle")}</h2>
      <form className="form panel-staff__form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="staff-username">{t("panel.staffUsername")}</label>
          <input
            id="staff-username"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
            aria-describedby="staff-username-hint"
          />
          <span id="staff-username-hint" className="muted panel-staff__hint">
            {t("panel.staffUsernameHint")}
          </span>
        </div>
        <RoleSelect value={role} onChange={setRole} />
        <div className="field">
          <label htmlFor="staff-password">{t("panel.staffPassword")}</label>
          <input
            id="staff-password"
            type="password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            maxLength={256}
            autoComplete="new-password"
            aria-describedby="staff-password-hint"
          />
          <span id="staff-password-hint" className="muted panel-staff__hint">
            {t("panel.staffPasswordHint")}
          </span>
        </div>
        {refusal && <RefusalMessage refusal={refusal} />}
        <button type="submit" className="button button--primary" disabled={isBusy} aria-busy={isBusy}>
          {t("panel.staffCreate")}
        </button>
      </form>
    </section>
  );
}
