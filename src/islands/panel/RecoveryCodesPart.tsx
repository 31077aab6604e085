import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState } from "react";
import { HoldButton } from "../../components/react/HoldButton";
import { useTranslation } from "../../lib/i18n/use-translation";
import { $changes, newRecoveryCodes, type Security } from "../../stores/panel-security";
import { ChangeError } from "./PanelStates";

/** The recovery codes just made, once: a copy button, and the words that they will not come back. */
export function OnceRecoveryCodes({ codes, onDismiss }: { codes: string[]; onDismiss: () => void }) {
  const { t } = useTranslation();
  const [copy, setCopy] = useState<"copied" | "failed" | undefined>();
  const title = useRef<HTMLHeadingElement>(null);
  // Mounted anew for every set (keyed by it): the operator is taken to it at once.
  useEffect(() => title.current?.focus(), []);
  const copyCodes = async () => {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  };
  return (
    <section className="card card--warning panel-once" aria-labelledby="codes-title">
      <h2 id="codes-title" ref={title} tabIndex={-1}>
        {t("panel.recoveryCodesNew")}
      </h2>
      <p>{t("panel.recoveryCodesOnce")}</p>
      <ol className="panel-codes" aria-label={t("panel.recoveryTitle")}>
        {codes.map((code) => (
          <li key={code} className="panel-codes__code">
            {code}
          </li>
        ))}
      </ol>
      <div className="panel-security__buttons">
        <button type="button" className="button button--primary" onClick={() => void copyCodes()}>
          {t("panel.staffCopy")}
        </button>
        <button type="button" className="button button--ghost" onClick={onDismiss}>
          {t("panel.recoveryCodesSaved")}
        </button>
      </div>
      <p role="status" className={copy === "failed" ? "form__error" : "muted"}>
        {copy === "copied"
          ? t("panel.staffCopied")
          : copy === "failed"
            ? t("panel.recoveryCodesCopyFailed")
            : ""}
      </p>
    </section>
  );
}

/** How many recovery codes are left, and a new set (the old one then stops working). */
export function RecoveryCodesPart({ security }: { security: Security }) {
  const { t } = useTranslation();
  const change = useStore($changes, { keys: ["recovery-codes"] })["recovery-codes"];
  return (
    <section className="card" aria-labelledby="recovery-title">
      <h2 id="recovery-title">{t("panel.recoveryTitle")}</h2>
      <p>{t("panel.recoveryLeft", { count: security.recoveryCodesLeft })}</p>
      <p className="muted">{t("panel.recoveryAbout")}</p>
      <HoldButton
        label={t("panel.recoveryNew")}
        hint={t("panel.recoveryHoldToRenew")}
        variant="ghost"
        disabled={change?.isBusy ?? false}
        onConfirm={() => newRecoveryCodes().then(() => undefined)}
      />
      {change?.error && <ChangeError text={change.error} />}
    </section>
  );
}
