import type { LoggedChange } from "../../../../../db/queries/access-changes";

/**
 * How long a missing version may stay missing before it counts as a rolled-back
 * transaction rather than one still open. PostgreSQL hands versions out before commit,
 * so version 7 can be seen after 8; a transaction here lasts milliseconds, so a gap
 * whose next row was written this long ago will not fill any more.
 */
export const gapSettleMs = 30_000;

/**
 * The version an agent may move to after reading `changes` (the log's rows after `since`,
 * in ascending version order): the highest v such that every version in (since, v] is in
 * the log, except that a gap whose next present row was written more than `gapSettleMs`
 * ago (wall clock) counts as rolled back. On PostgreSQL a gap settles sooner:
 * `oldestOpenSince` is when the oldest transaction still open (one that wrote) began,
 * read BEFORE the rows. A transaction holding a missing version began before the next row
 * took its version, so once every open one began after that row (with a millisecond for
 * rounding), the missing version's transaction has ended: committed, its row would be in
 * `changes`; so it rolled back. The cursor never jumps over a gap that may still fill, so
 * no committed change is ever skipped; rows past the gap are simply sent again next time,
 * which is harmless because an answer carries the current state, not a diff.
 */
export function advanceCursor(
  since: number,
  changes: readonly LoggedChange[],
  wallNow: number,
  oldestOpenSince: number | null = null,
): number {
  const isSettled = (change: LoggedChange) =>
    change.changed_at < wallNow - gapSettleMs ||
    (oldestOpenSince !== null && oldestOpenSince > change.changed_at + 1);
  let cursor = since;
  for (const change of changes) {
    if (change.version <= cursor) continue;
    if (change.version !== cursor + 1 && !isSettled(change)) break;
    cursor = change.version;
  }
  return cursor;
}
