import { useStore } from "@nanostores/react";
import { useId, useState } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";
import { $entryCreation, addEntry } from "../../stores/panel-entries";
import { $nodes } from "../../stores/panel-nodes";
import { EntryForm, emptyDraft } from "./EntryForm";
import { inboundText } from "./nodes-calls";

/** A new entry for one node's inbound: the node and inbound from the Nodes list, then its settings. */
export function EntryAdd({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const change = useStore($entryCreation);
  const nodes = (useStore($nodes) ?? []).filter((node) => node.inbounds.length > 0);
  const [nodeId, setNodeId] = useState(nodes[0]?.id);
  const node = nodes.find((item) => item.id === nodeId);
  const [tag, setTag] = useState(node?.inbounds[0]?.tag);
  const inbound = node?.inbounds.find((item) => item.tag === tag) ?? node?.inbounds[0];

  if (nodes.length === 0) return <p className="muted">{t("panel.entriesNoInbounds")}</p>;
  return (
    <EntryForm
      initial={emptyDraft}
      network={inbound?.network}
      change={change}
      submitLabel={t("panel.entriesAdd")}
      onSubmit={async (draft) => {
        if (!node || !inbound) return false;
        const added = await addEntry(node.id, inbound.tag, draft);
        if (added) onClose();
        return added;
      }}
      onCancel={onClose}
    >
      <div className="panel-entries__fields">
        <div className="field">
          <label htmlFor={`${id}-node`}>{t("panel.entriesNode")}</label>
          <select
            id={`${id}-node`}
            value={nodeId}
            onChange={(event) => {
              const chosen = nodes.find((item) => item.id === Number(event.target.value));
              setNodeId(chosen?.id);
              setTag(chosen?.inbounds[0]?.tag);
            }}
          >
            {nodes.map((item) => (
              <option key={item.id} value={item.id} translate="no">
                {item.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-inbound`}>{t("panel.entriesInbound")}</label>
          <select id={`${id}-inbound`} value={inbound?.tag} onChange={(event) => setTag(event.target.value)}>
            {node?.inbounds.map((item) => (
              <option key={item.tag} value={item.tag} translate="no">
                {`${item.tag} · ${inboundText(item)}`}
              </option>
            ))}
          </select>
        </div>
      </div>
    </EntryForm>
  );
}
