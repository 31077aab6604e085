import { useStore } from "@nanostores/react";
import { type ReactNode, useId, useState } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";
import { idle } from "../../stores/panel-change";
import {
  $entryChanges,
  $selectedEntries,
  draftOf,
  editEntry,
  moveEntry,
  setEntryEnabled,
  toggleSelected,
} from "../../stores/panel-entries";
import { EntryForm } from "./EntryForm";
import { EntryHealth, EntryState } from "./EntryHealth";
import { dialedAddress, type Entry, entryRefusalKey, transportText } from "./entries-calls";
import { NodeRefusal } from "./NodesParts";

function Fact({ label, children, isWide = false }: { label: string; children: ReactNode; isWide?: boolean }) {
  return (
    <div className={isWide ? "panel-entries__wide" : undefined}>
      <dt>{label}</dt>
      <dd translate="no">{children}</dd>
    </div>
  );
}

/** What clients dial with this entry: address, transport, SNI, fingerprint, ALPN; audience and tags. */
function EntryFacts({ entry }: { entry: Entry }) {
  const { t } = useTranslation();
  const none = <span className="muted">—</span>;
  const { dialed } = entry;
  return (
    <dl className="panel-entries__facts">
      <Fact label={t("panel.entriesAddress")} isWide>
        {dialedAddress(entry) ?? none}
      </Fact>
      <Fact label={t("panel.entriesTransport")}>{dialed ? transportText(dialed) : none}</Fact>
      <Fact label={t("panel.entriesSni")}>{dialed?.sni ?? none}</Fact>
      <Fact label={t("panel.entriesFingerprint")}>{dialed?.fingerprint ?? none}</Fact>
      <Fact label={t("panel.entriesAlpn")}>{dialed?.alpn.length ? dialed.alpn.join(", ") : none}</Fact>
      <Fact label={t("panel.entriesAudience")}>
        <span translate="yes">
          {entry.tariffs.length === 0
            ? t("panel.entriesEveryone")
            : t("panel.entriesTariffs", { list: entry.tariffs.join(", ") })}
        </span>
      </Fact>
      <Fact label={t("panel.entriesTags")}>{entry.tags.length ? entry.tags.join(", ") : none}</Fact>
    </dl>
  );
}

/** One entry: what it is, whether it is in subscriptions and why not, and what an administrator may change. */
export function EntryItem({ entry, isFirst, isLast }: { entry: Entry; isFirst: boolean; isLast: boolean }) {
  const { t } = useTranslation();
  const change = useStore($entryChanges, { keys: [String(entry.id)] })[entry.id] ?? idle;
  const isSelected = useStore($selectedEntries).includes(entry.id);
  const [isEditing, setIsEditing] = useState(false);
  const id = useId();
  const name = entry.remark || entry.inboundTag;
  const { dialed } = entry;

  return (
    <li className="panel-entries__item" aria-busy={change.isBusy}>
      <div className="panel-entries__head">
        {/* Named "Select" and the entry's name, which is not translated (it is what apps show). */}
        <span className="panel-entries__pick">
          <span id={`${id}-pick`} className="visually-hidden">
            {t("panel.entriesPick")}
          </span>
          <input
            type="checkbox"
            checked={isSelected}
            onChange={() => toggleSelected(entry)}
            aria-labelledby={`${id}-pick ${id}-name`}
          />
        </span>
        <div className="panel-entries__title" id={`${id}-name`}>
          <strong translate="no">{name}</strong>
          <span className="panel-nodes__detail" translate="no">
            {`${entry.nodeName} · ${entry.inboundTag}`}
          </span>
        </div>
        <EntryState entry={entry} />
      </div>
      <EntryFacts entry={entry} />
      <EntryHealth entry={entry} />
      <div className="panel-entries__buttons">
        <button
          type="button"
          className="button button--ghost"
          aria-expanded={isEditing}
          onClick={() => setIsEditing(!isEditing)}
        >
          {t("panel.entriesEdit")}
        </button>
        <button
          type="button"
          className="button button--ghost"
          disabled={change.isBusy}
          onClick={() => void setEntryEnabled(entry, !entry.enabled)}
        >
          {t(entry.enabled ? "panel.entriesSwitchOff" : "panel.entriesSwitchOn")}
        </button>
        <button
          type="button"
          className="button button--ghost"
          disabled={change.isBusy || isFirst}
          aria-describedby={`${id}-name`}
          onClick={() => void moveEntry(entry, -1)}
        >
          {t("panel.entriesUp")}
        </button>
        <button
          type="button"
          className="button button--ghost"
          disabled={change.isBusy || isLast}
          aria-describedby={`${id}-name`}
          onClick={() => void moveEntry(entry, 1)}
        >
          {t("panel.entriesDown")}
        </button>
      </div>
      {isEditing ? (
        <EntryForm
          initial={draftOf(entry)}
          network={dialed?.network}
          inbound={{
            address: entry.own.address === null ? dialed?.address : undefined,
            port: entry.own.port === null && dialed ? String(dialed.port) : undefined,
            sni: entry.own.sni === null ? dialed?.sni : undefined,
            fingerprint: entry.own.fingerprint === null ? dialed?.fingerprint : undefined,
          }}
          change={change}
          submitLabel={t("panel.entriesSave")}
          onSubmit={async (draft) => {
            const saved = await editEntry(entry, draft);
            if (saved) setIsEditing(false);
            return saved;
          }}
          onCancel={() => setIsEditing(false)}
        />
      ) : (
        change.refusal && <NodeRefusal refusal={change.refusal} reasonOf={entryRefusalKey} />
      )}
    </li>
  );
}
