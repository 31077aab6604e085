import { formatDateTime } from "../../../core/date-time";
import { useTranslation } from "../../lib/i18n/use-translation";
import { downSince, type Entry, entryTone, outKeys, percent } from "./entries-calls";

/** In subscriptions, or out and why; since when, where the probes say. */
export function EntryState({ entry }: { entry: Entry }) {
  const { t, language } = useTranslation();
  const tone = entryTone(entry);
  const since = entry.out === "probeDown" ? downSince(entry) : undefined;
  return (
    <p className={`panel-entries__state panel-entries__state--${tone}`}>
      <span className={`panel-nodes__dot panel-entries__dot--${tone}`} aria-hidden="true" />
      <span>
        {t(outKeys[entry.out ?? "in"])}
        {since && (
          <span className="panel-nodes__detail">
            {t("panel.entriesSince", { when: formatDateTime(since, language) })}
          </span>
        )}
      </span>
    </p>
  );
}

/** Each probe's last verdict, the node's connection success, and a REALITY name's risk. */
export function EntryHealth({ entry }: { entry: Entry }) {
  const { t, language } = useTranslation();
  return (
    <div className="panel-entries__health">
      {entry.probes.length === 0 ? (
        <p className="panel-nodes__detail">{t("panel.entriesNoProbes")}</p>
      ) : (
        <ul className="panel-entries__probes">
          {entry.probes.map((probe) => (
            <li key={probe.probe} className={probe.up ? undefined : "panel-entries__probe--down"}>
              <span translate="no">{probe.probe}</span>
              {": "}
              {t(probe.up ? "panel.entriesProbeUp" : "panel.entriesProbeDown", {
                when: formatDateTime(probe.since, language),
              })}
              {probe.lastError && probe.lastErrorAt && (
                <span className="panel-nodes__detail">
                  {t("panel.entriesProbeError", { when: formatDateTime(probe.lastErrorAt, language) })}{" "}
                  <span translate="no">{probe.lastError}</span>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="panel-nodes__detail">
        {entry.connections
          ? t("panel.entriesConnections", {
              rate: percent(entry.connections.successRate),
              total: entry.connections.total,
            })
          : t("panel.entriesNoConnections")}
      </p>
      {entry.warning && (
        <p className="panel-nodes__warning panel-entries__warning">
          {t(entry.warning === "russianTarget" ? "panel.entriesWarnRussian" : "panel.entriesWarnAbused")}
        </p>
      )}
    </div>
  );
}
