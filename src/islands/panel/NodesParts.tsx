import { useStore } from "@nanostores/react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import type { TranslationKey } from "../../lib/i18n/runtime";
import { useTranslation } from "../../lib/i18n/use-translation";
import type { Refusal } from "../../stores/panel-change";
import { $nodeCreation, createNode, type RevealedKey } from "../../stores/panel-nodes";
import { nodeRefusalKey } from "./nodes-calls";
import { RefusalNote } from "./PanelStates";

/**
 * The screen's reason, with the server's own message under it when it sent one; `reasonOf`
 * reads the refusal in its section's words (a node's by default).
 */
export function NodeRefusal({
  refusal,
  reasonOf = nodeRefusalKey,
}: {
  refusal: Refusal;
  reasonOf?: (refusal: Refusal) => TranslationKey;
}) {
  return <RefusalNote refusal={refusal} reason={reasonOf(refusal)} />;
}

/** How a once-shown key is named: a node's by default, a probe's in the Probes section. */
export type KeyWords = { title: TranslationKey; label: TranslationKey; once: TranslationKey };
const nodeKeyWords: KeyWords = {
  title: "panel.nodesKeyFor",
  label: "panel.nodesKey",
  once: "panel.nodesKeyOnce",
};

/**
 * A node's (or probe's) key, once: a copy button, and the words that it will not come back;
 * `children` say where it goes.
 */
export function OnceKey({
  revealed,
  onDismiss,
  words = nodeKeyWords,
  children,
}: {
  revealed: RevealedKey;
  onDismiss: () => void;
  words?: KeyWords;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [copy, setCopy] = useState<"copied" | "failed" | undefined>();
  const title = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  // Mounted anew for every key (keyed by it): the operator is taken to it at once.
  useEffect(() => title.current?.focus(), []);
  const copyKey = async () => {
    try {
      await navigator.clipboard.writeText(revealed.key);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  };
  return (
    <section className="card card--warning panel-once" aria-labelledby={titleId}>
      <h2 id={titleId} ref={title} tabIndex={-1}>
        {t(words.title, { name: revealed.name })}
      </h2>
      <p>{t(words.once)}</p>
      {children}
      <div className="panel-once__secret">
        <label className="field panel-once__field">
          <span>{t(words.label)}</span>
          <input
            className="panel-once__password"
            value={revealed.key}
            readOnly
            spellCheck={false}
            autoComplete="off"
            translate="no"
            onFocus={(event) => event.currentTarget.select()}
          />
        </label>
        <button type="button" className="button button--primary" onClick={() => void copyKey()}>
          {t("panel.staffCopy")}
        </button>
      </div>
      <p role="status" className={copy === "failed" ? "form__error" : "muted"}>
        {copy === "copied" ? t("panel.staffCopied") : copy === "failed" ? t("panel.nodesCopyFailed") : ""}
      </p>
      <button type="button" className="button button--ghost" onClick={onDismiss}>
        {t("panel.staffDismiss")}
      </button>
    </section>
  );
}

/** The new node's form; the typed name stays here until the node exists. */
export function NodeCreateForm() {
  const { t } = useTranslation();
  const { isBusy, refusal } = useStore($nodeCreation);
  const [name, setName] = useState("");

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (await createNode(name)) setName("");
  };

  return (
    <section className="card" aria-labelledby="node-create">
      <h2 id="node-create">{t("panel.nodesCreateTitle")}</h2>
      <form className="form panel-staff__form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="node-name">{t("panel.nodesName")}</label>
          <input
            id="node-name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
            aria-describedby="node-name-hint"
          />
          <span id="node-name-hint" className="muted panel-staff__hint">
            {t("panel.nodesNameHint")}
          </span>
        </div>
        {refusal && <NodeRefusal refusal={refusal} />}
        <button type="submit" className="button button--primary" disabled={isBusy} aria-busy={isBusy}>
          {t("panel.nodesCreate")}
        </button>
      </form>
    </section>
  );
}
