import type { ProbeResult } from "../../../../../agent/contract/probe-api";
import type { Database } from "../../../../../db/database";
import { nodeEntries } from "../../../../../db/queries/entries";
import { type EntryCheckRow, entryChecks } from "../../../../../db/queries/probes";

/** Results in a row against what a probe decided of an entry before it changes its mind. */
export const resultsToTurn = 2;

/**
 * The next state of one probe's view of one entry: down after two failures in a row, up
 * after two successes, so one lost packet neither takes an entry out of every
 * subscription nor puts a blocked one back. A first result starts from up.
 */
export function nextCheck(
  previous: EntryCheckRow | undefined,
  result: ProbeResult,
  probeId: number,
  wallNow: number,
): EntryCheckRow {
  const wasUp = previous ? Number(previous.up) === 1 : true;
  const against = result.ok !== wasUp;
  const streak = against ? (previous ? Number(previous.streak) : 0) + 1 : 0;
  const turns = streak >= resultsToTurn;
  return {
    entry_id: result.entryId,
    probe_id: probeId,
    up: (turns ? !wasUp : wasUp) ? 1 : 0,
    since: turns || !previous ? wallNow : Number(previous.since),
    streak: turns ? 0 : streak,
    latency_ms: result.ok ? (result.latencyMs ?? null) : (previous?.latency_ms ?? null),
    last_error: result.ok ? (previous?.last_error ?? null) : (result.error ?? "failed"),
    last_error_at: result.ok ? (previous?.last_error_at ?? null) : wallNow,
    checked_at: wallNow,
  };
}

/**
 * A probe's round: each result moves its view of the entry; results for entries that are
 * gone are dropped, and so are those the probe could not judge (`unsupported`: its core
 * cannot dial the entry as apps do), which would otherwise take working entries out.
 */
export async function storeProbeResults(
  database: Database,
  probeId: number,
  results: readonly ProbeResult[],
  wallNow: number,
): Promise<void> {
  const judged = results.filter((result) => result.unsupported !== true);
  if (judged.length === 0) return;
  await database.transaction(async () => {
    const ids = [...new Set(judged.map((result) => result.entryId))];
    const existing = new Set((await nodeEntries.existing(database, ids)).map((row) => Number(row.id)));
    const previous = new Map(
      (await entryChecks.ofProbe(database, probeId)).map((check) => [Number(check.entry_id), check]),
    );
    const next = new Map<number, EntryCheckRow>();
    for (const result of judged) {
      if (!existing.has(result.entryId)) continue;
      const check = nextCheck(
        next.get(result.entryId) ?? previous.get(result.entryId),
        result,
        probeId,
        wallNow,
      );
      next.set(result.entryId, check);
    }
    if (next.size > 0) await entryChecks.store(database, [...next.values()]);
  });
}
