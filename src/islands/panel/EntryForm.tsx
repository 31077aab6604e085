import { type FormEvent, type ReactNode, useId, useState } from "react";
import { alpnValues, fingerprints } from "../../../core/entry-settings";
import { tariffMonths } from "../../../core/prices";
import { useTranslation } from "../../lib/i18n/use-translation";
import type { ChangeState } from "../../stores/panel-change";
import { draftOf, type EntryDraft } from "../../stores/panel-entries";
import { entryRefusalKey } from "./entries-calls";
import { NodeRefusal } from "./NodesParts";

type TextField = "remark" | "address" | "port" | "sni" | "path" | "hostHeader" | "serviceName" | "tags";

/** What the inbound itself sets, shown in an empty field; unknown: "the inbound's". */
export type InboundValues = Partial<Record<TextField | "fingerprint", string | null>>;

/** Transports that carry a path and a Host header; gRPC has a service name instead. */
const pathNetworks = ["ws", "xhttp", "httpupgrade"];

const toggled = <T,>(list: readonly T[], value: T) =>
  list.includes(value) ? list.filter((item) => item !== value) : [...list, value];

type Props = {
  initial: EntryDraft;
  /** The inbound's transport: which of path, Host and service name apply; all when unknown. */
  network?: string;
  inbound?: InboundValues;
  change: ChangeState;
  submitLabel: string;
  /** True when saved: the form then starts again from `initial` (or is closed by its owner). */
  onSubmit: (draft: EntryDraft) => Promise<boolean>;
  onCancel?: () => void;
  /** Fields before the settings (the add form's node and inbound). */
  children?: ReactNode;
};

/**
 * An entry's settings. An empty field gives the setting back to the inbound; what was typed
 * stays while a save is refused, beside the reason.
 */
export function EntryForm({
  initial,
  network,
  inbound = {},
  change,
  submitLabel,
  onSubmit,
  onCancel,
  children,
}: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const set = <K extends keyof EntryDraft>(key: K, value: EntryDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const own = t("panel.entriesInboundOwn");

  const text = (
    field: TextField,
    label: string,
    extra: { inputMode?: "numeric"; maxLength?: number } = {},
  ) => (
    <div className="field">
      <label htmlFor={`${id}-${field}`}>{label}</label>
      <input
        id={`${id}-${field}`}
        value={draft[field]}
        onChange={(event) => set(field, event.target.value)}
        placeholder={field === "remark" || field === "tags" ? undefined : (inbound[field] ?? own)}
        autoComplete="off"
        spellCheck={false}
        maxLength={extra.maxLength ?? 253}
        inputMode={extra.inputMode}
      />
    </div>
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await onSubmit(draft)) setDraft(initial);
  };

  const hasPath = network === undefined || pathNetworks.includes(network);
  const hasService = network === undefined || network === "grpc";
  return (
    <form className="form panel-entries__form" onSubmit={submit} noValidate>
      {children}
      <p className="muted panel-staff__hint">{t("panel.entriesFormHint")}</p>
      <div className="panel-entries__fields">
        {text("remark", t("panel.entriesRemark"), { maxLength: 64 })}
        {text("address", t("panel.entriesAddress"))}
        {text("port", t("panel.entriesPort"), { inputMode: "numeric", maxLength: 5 })}
        {text("sni", t("panel.entriesSni"))}
        <div className="field">
          <label htmlFor={`${id}-fingerprint`}>{t("panel.entriesFingerprint")}</label>
          <select
            id={`${id}-fingerprint`}
            value={draft.fingerprint}
            onChange={(event) => set("fingerprint", event.target.value)}
          >
            <option value="">{inbound.fingerprint ? `${own}: ${inbound.fingerprint}` : own}</option>
            {fingerprints.map((name) => (
              <option key={name} value={name} translate="no">
                {name}
              </option>
            ))}
          </select>
        </div>
        {hasPath && text("path", t("panel.entriesPath"), { maxLength: 256 })}
        {hasPath && text("hostHeader", t("panel.entriesHostHeader"))}
        {hasService && text("serviceName", t("panel.entriesServiceName"), { maxLength: 128 })}
        {text("tags", t("panel.entriesTags"), { maxLength: 200 })}
      </div>
      <fieldset className="panel-entries__choices">
        <legend>{t("panel.entriesAlpn")}</legend>
        {alpnValues.map((value) => (
          <label key={value} className="panel-entries__choice">
            <input
              type="checkbox"
              checked={draft.alpn.includes(value)}
              onChange={() => set("alpn", toggled(draft.alpn, value))}
            />
            <span translate="no">{value}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="panel-entries__choices">
        <legend>{t("panel.entriesAudience")}</legend>
        {tariffMonths.map((months) => (
          <label key={months} className="panel-entries__choice">
            <input
              type="checkbox"
              checked={draft.tariffs.includes(months)}
              onChange={() => set("tariffs", toggled(draft.tariffs, months))}
            />
            <span>{t("panel.entriesMonths", { count: months })}</span>
          </label>
        ))}
        <span className="muted panel-staff__hint">{t("panel.entriesAudienceHint")}</span>
      </fieldset>
      {change.refusal && <NodeRefusal refusal={change.refusal} reasonOf={entryRefusalKey} />}
      <div className="panel-nodes__heading">
        <button
          type="submit"
          className="button button--primary"
          disabled={change.isBusy}
          aria-busy={change.isBusy}
        >
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {t("panel.entriesCancel")}
          </button>
        )}
      </div>
    </form>
  );
}

/** A new entry's form starts empty: every setting the inbound's. */
export const emptyDraft = draftOf(undefined);
