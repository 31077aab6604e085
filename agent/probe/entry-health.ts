import type { ProbeEntry, ProbeResult } from "../contract/probe-api.ts";
import type { Logger } from "../log.ts";

/**
 * Each entry's last state as this probe saw it, so the log tells when an entry went down
 * and came back (with why and for how long), not every round's verdict.
 */
export class EntryHealth {
  private readonly states = new Map<number, { ok: boolean; since: number }>();
  private readonly log: Logger;
  private readonly now: () => number;

  constructor(log: Logger, now: () => number = Date.now) {
    this.log = log;
    this.now = now;
  }

  observe(entries: ProbeEntry[], results: ProbeResult[]): void {
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    for (const id of this.states.keys()) if (!byId.has(id)) this.states.delete(id);
    for (const result of results) {
      const entry = byId.get(result.entryId);
      // No verdict for an entry this probe cannot dial: the round's log names those once.
      if (!entry || result.unsupported) continue;
      const before = this.states.get(result.entryId);
      if (before?.ok === result.ok) continue;
      this.states.set(result.entryId, { ok: result.ok, since: this.now() });
      const fields = {
        entry: entry.name,
        entryId: entry.id,
        dials: `${entry.address}:${entry.inbound.port}`,
      };
      if (!result.ok) this.log("warn", "entry down", { ...fields, error: result.error });
      else if (before)
        this.log("info", "entry up again", {
          ...fields,
          latencyMs: result.latencyMs,
          downFor: `${Math.round((this.now() - before.since) / 1000)} s`,
        });
    }
  }

  /** Entries seen up in their last round. */
  get upCount(): number {
    let count = 0;
    for (const state of this.states.values()) if (state.ok) count++;
    return count;
  }
}
