import { Gauge, type Registry } from "prom-client";
import type { Database } from "../../../../db/database";
import { listEntries } from "./panel-entries";

/** The series' entry label: readable in an alert, and unique (the id) whatever the remarks. */
export const entryLabel = (entry: { id: number; nodeName: string; inboundTag: string }) =>
  `${entry.nodeName}/${entry.inboundTag}#${entry.id}`;

/**
 * DESIGN §8's entry health, computed when scraped: `kannt_entry_up{entry,probe}` (1 when that
 * probe finds the entry up, 0 when down; one series per fresh verdict) and
 * `kannt_entry_published{entry}` (1 while the entry is in subscription answers, for every
 * enabled entry), so an alert can tell one blocked entry from none left.
 */
export function registerEntryMetrics(registry: Registry, database: Database) {
  const registers = [registry];
  let reading: ReturnType<typeof listEntries> | undefined;
  // Both gauges read one listing per scrape: whichever collects first starts it.
  const readEntries = () => {
    reading ??= listEntries(database).finally(() => {
      reading = undefined;
    });
    return reading;
  };
  new Gauge({
    name: "kannt_entry_up",
    help: "Per published entry and probe agent: 1 when the probe's last verdict (two results in a row) is up, 0 when down.",
    labelNames: ["entry", "probe"] as const,
    registers,
    async collect() {
      const entries = await readEntries();
      this.reset();
      for (const entry of entries) {
        if (!entry.enabled) continue;
        for (const verdict of entry.probes)
          this.set({ entry: entryLabel(entry), probe: verdict.probe }, verdict.up ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: "kannt_entry_published",
    help: "Per enabled entry: 1 while subscription answers list it, 0 while its node or a probe keeps it out.",
    labelNames: ["entry"] as const,
    registers,
    async collect() {
      const entries = await readEntries();
      this.reset();
      for (const entry of entries)
        if (entry.enabled) this.set({ entry: entryLabel(entry) }, entry.out === null ? 1 : 0);
    },
  });
}
