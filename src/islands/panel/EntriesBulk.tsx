import { useStore } from "@nanostores/react";
import { useId, useState } from "react";
import { fingerprints } from "../../../core/entry-settings";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $manyChange,
  $selectedCount,
  changeSelected,
  clearSelection,
  type ManyChange,
  selectMatching,
} from "../../stores/panel-entries";
import { entryRefusalKey } from "./entries-calls";
import { NodeRefusal } from "./NodesParts";

const securities = ["reality", "tls", "none"] as const;
type Action = "fingerprint" | "on" | "off";

/**
 * One change to many entries: tick them by a filter (security, current fingerprint) or one by
 * one, choose the change, and confirm it with the number of entries it reaches.
 */
export function EntriesBulk() {
  const { t } = useTranslation();
  const id = useId();
  const count = useStore($selectedCount);
  const change = useStore($manyChange);
  const [filter, setFilter] = useState({ security: "reality", fingerprint: "chrome" });
  const [action, setAction] = useState<Action>("fingerprint");
  const [fingerprint, setFingerprint] = useState<string>("firefox");
  const [isConfirming, setIsConfirming] = useState(false);

  const wanted: ManyChange = action === "fingerprint" ? { fingerprint } : { enabled: action === "on" };
  const what =
    action === "fingerprint"
      ? t("panel.entriesManyToFingerprint", { fingerprint })
      : t(action === "on" ? "panel.entriesManyToOn" : "panel.entriesManyToOff");
  const apply = async () => {
    if (await changeSelected(wanted)) setIsConfirming(false);
  };

  return (
    <section className="panel-entries__bulk" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t("panel.entriesManyTitle")}</h3>
      <div className="panel-entries__fields">
        <div className="field">
          <label htmlFor={`${id}-security`}>{t("panel.entriesFilterSecurity")}</label>
          <select
            id={`${id}-security`}
            value={filter.security}
            onChange={(event) => setFilter({ ...filter, security: event.target.value })}
          >
            <option value="">{t("panel.entriesAny")}</option>
            {securities.map((name) => (
              <option key={name} value={name} translate="no">
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-current`}>{t("panel.entriesFilterFingerprint")}</label>
          <select
            id={`${id}-current`}
            value={filter.fingerprint}
            onChange={(event) => setFilter({ ...filter, fingerprint: event.target.value })}
          >
            <option value="">{t("panel.entriesAny")}</option>
            <option value="none">{t("panel.entriesNoFingerprint")}</option>
            {fingerprints.map((name) => (
              <option key={name} value={name} translate="no">
                {name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="panel-entries__buttons">
        <button type="button" className="button button--ghost" onClick={() => selectMatching(filter)}>
          {t("panel.entriesSelectMatching")}
        </button>
        <button
          type="button"
          className="button button--ghost"
          disabled={count === 0}
          onClick={clearSelection}
        >
          {t("panel.entriesClearSelection")}
        </button>
      </div>
      <p role="status" className="muted">
        {t("panel.entriesSelected", { count })}
      </p>
      <div className="panel-entries__fields">
        <div className="field">
          <label htmlFor={`${id}-action`}>{t("panel.entriesManyChange")}</label>
          <select
            id={`${id}-action`}
            value={action}
            onChange={(event) => {
              setAction(event.target.value as Action);
              setIsConfirming(false);
            }}
          >
            <option value="fingerprint">{t("panel.entriesManySetFingerprint")}</option>
            <option value="on">{t("panel.entriesSwitchOn")}</option>
            <option value="off">{t("panel.entriesSwitchOff")}</option>
          </select>
        </div>
        {action === "fingerprint" && (
          <div className="field">
            <label htmlFor={`${id}-new`}>{t("panel.entriesManyNewFingerprint")}</label>
            <select
              id={`${id}-new`}
              value={fingerprint}
              onChange={(event) => setFingerprint(event.target.value)}
            >
              {fingerprints.map((name) => (
                <option key={name} value={name} translate="no">
                  {name}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {isConfirming && count > 0 ? (
        <fieldset className="panel-entries__confirm">
          <legend>{t("panel.entriesManyConfirm", { count, what })}</legend>
          <div className="panel-entries__buttons">
            <button
              type="button"
              className="button button--primary"
              disabled={change.isBusy}
              aria-busy={change.isBusy}
              onClick={() => void apply()}
            >
              {t("panel.entriesManyYes", { count })}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setIsConfirming(false)}>
              {t("panel.entriesCancel")}
            </button>
          </div>
        </fieldset>
      ) : (
        <button
          type="button"
          className="button button--primary"
          disabled={count === 0}
          onClick={() => setIsConfirming(true)}
        >
          {t("panel.entriesManyApply", { count })}
        </button>
      )}
      {change.refusal && <NodeRefusal refusal={change.refusal} reasonOf={entryRefusalKey} />}
    </section>
  );
}
