import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";
import { $entries, $entriesRead, openEntries, refreshEntries } from "../../stores/panel-entries";
import { EntriesBulk } from "./EntriesBulk";
import { EntryAdd } from "./EntryAdd";
import { EntryItem } from "./EntryItem";
import { Empty, Failed, Loading } from "./PanelStates";

/**
 * The published entries (DESIGN §8), in the order every subscription lists them: what each
 * dials, whether it is in subscriptions and why not, with the probes' verdicts.
 */
export function EntriesPart() {
  const { t } = useTranslation();
  const loaded = useStore($entriesRead);
  const entries = useStore($entries);
  const [isAdding, setIsAdding] = useState(false);
  useEffect(() => {
    void openEntries();
  }, []);
  const retry = () => void refreshEntries();
  const isRefreshing = loaded.state === "loading";

  return (
    <section className="card" aria-labelledby="entries-title" aria-busy={isRefreshing}>
      <div className="panel-nodes__heading">
        <h2 id="entries-title">{t("panel.entriesTitle")}</h2>
        <div className="panel-entries__buttons">
          <button
            type="button"
            className="button button--ghost"
            aria-expanded={isAdding}
            onClick={() => setIsAdding(!isAdding)}
          >
            {t("panel.entriesAddOpen")}
          </button>
          <button type="button" className="button button--ghost" disabled={isRefreshing} onClick={retry}>
            {t("panel.nodesRefresh")}
          </button>
        </div>
      </div>
      <p className="muted">{t("panel.entriesIntro")}</p>
      {isAdding && <EntryAdd onClose={() => setIsAdding(false)} />}
      {/* A refresh keeps the list on screen while it asks, and after it fails. */}
      {!entries ? (
        loaded.state === "failed" ? (
          <Failed failure={loaded} onRetry={retry} />
        ) : (
          <Loading />
        )
      ) : (
        <>
          {loaded.state === "failed" && <Failed failure={loaded} onRetry={retry} />}
          {entries.length === 0 ? (
            <Empty>{t("panel.entriesEmpty")}</Empty>
          ) : (
            <>
              <EntriesBulk />
              <ol className="panel-entries__list">
                {entries.map((entry, index) => (
                  <EntryItem
                    key={entry.id}
                    entry={entry}
                    isFirst={index === 0}
                    isLast={index === entries.length - 1}
                  />
                ))}
              </ol>
            </>
          )}
        </>
      )}
    </section>
  );
}
