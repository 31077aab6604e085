import type { PublishedEntryRow } from "../../../../db/queries/entries";
import type { EntryCheckRow } from "../../../../db/queries/probes";

/**
 * When an entry or its node counts as failed (DESIGN §8: out of every subscription answer
 * within 5 minutes, back within 5 minutes of recovering). Times are wall clock.
 *
 * - A node is served while its agent reported within 3 minutes (it reports every 10 s), its
 *   core is up, and it applied the allow-list's changes up to 5 minutes old: a node that never
 *   synced, or cannot, would refuse the customers the product just let in.
 * - An entry is out while any probe that checked it within 15 minutes decided it down (two
 *   failures in a row, probe-results.ts). A probe silent longer no longer counts: without
 *   probes the product knows only the node's side.
 */
export const nodeSilentMs = 3 * 60_000;
export const nodeSyncLagMs = 5 * 60_000;
export const checkFreshMs = 15 * 60_000;

export type NodeFailure = "silent" | "coreDown" | "notSyncing";

type NodeState = Pick<PublishedEntryRow, "last_seen_at" | "core_state" | "pending_since">;

/** Why a node's entries are out now, or undefined when it serves. */
export function nodeFailure(node: NodeState, wallNow: number): NodeFailure | undefined {
  if (node.last_seen_at === null || wallNow - Number(node.last_seen_at) > nodeSilentMs) return "silent";
  if (node.core_state === "down") return "coreDown";
  if (node.pending_since !== null && wallNow - Number(node.pending_since) > nodeSyncLagMs)
    return "notSyncing";
  return undefined;
}

export const isFresh = (check: Pick<EntryCheckRow, "checked_at">, wallNow: number) =>
  wallNow - Number(check.checked_at) <= checkFreshMs;

/** The ids of entries some probe found down, of the checks still fresh. */
export function entriesDown(checks: readonly EntryCheckRow[], wallNow: number): Set<number> {
  const down = new Set<number>();
  for (const check of checks)
    if (Number(check.up) === 0 && isFresh(check, wallNow)) down.add(Number(check.entry_id));
  return down;
}
