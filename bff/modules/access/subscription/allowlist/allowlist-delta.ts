import type { AllowEntry, AllowListResponse } from "../../../../../agent/contract/node-api";
import type { Database } from "../../../../../db/database";
import { accessChanges, type LoggedChange } from "../../../../../db/queries/access-changes";
import { allowList, type DeviceState } from "../../../../../db/queries/allowlist";
import { entryOf, fullAllowList } from "./allowlist";
import { advanceCursor, gapSettleMs } from "./change-cursor";

/**
 * More changed rows than this in one answer and a full list is cheaper for everyone
 * than the delta (an agent that was away for hours).
 */
const maxDeltaRows = 5000;

function entryOfState(device: DeviceState, now: number): AllowEntry | undefined {
  if (device.is_active !== 1 || device.detached_at !== null || device.credential === null) return undefined;
  if (device.status === null || device.slot === null || Number(device.is_within_slots) !== 1)
    return undefined;
  return entryOf({ ...device, slot: device.slot, credential: device.credential, status: device.status }, now);
}

async function fullAnswer(database: Database, version: number, now: number): Promise<AllowListResponse> {
  return { version, full: true, entries: await fullAllowList(database, now), removed: [] };
}

/**
 * The newest version written at least `gapSettleMs` ago: every gap below it is settled,
 * so a full answer's cursor walks only the last few seconds of the log.
 */
const settledVersion = (database: Database, wallNow: number) =>
  accessChanges.newestBefore(database, wallNow - gapSettleMs);

/** An answer, and whether the log holds rows past its version (a gap that may still fill). */
export type AllowListRead = { answer: AllowListResponse; isPending: boolean };

const pendingAfter = (version: number, changes: readonly LoggedChange[]) =>
  changes.some((change) => change.version > version);

/**
 * The cursor rule over the log after `from`, read a page at a time: a burst of changes
 * (a bulk import) can put more rows in the last seconds than one page holds.
 */
async function cursorAfter(database: Database, from: number, wallNow: number, openSince: number | null) {
  let cursor = from;
  for (;;) {
    const page = await accessChanges.versionsAfter(database, cursor, maxDeltaRows);
    const next = advanceCursor(cursor, page, wallNow, openSince);
    if (page.length < maxDeltaRows || next !== page.at(-1)?.version)
      return { version: next, isPending: pendingAfter(next, page) };
    cursor = next;
  }
}

/**
 * The allow-list for an agent that applied `since` (DESIGN §8). The log is read before
 * the state, so whatever the answer's version covers is in the state read after it. A
 * full list when `since` is 0, older than the log holds or newer than it (a restored
 * database), when a change touched everyone (user_id NULL), or when the delta would be
 * larger than the list; otherwise the current entries of every device of every customer
 * changed after `since`, and the tags to remove. Rows past a gap in the versions are sent
 * too (a revocation must not wait for someone else's transaction), but the version stays
 * before the gap, so they come again: harmless, as entries are the current state.
 */
export async function readAllowList(
  database: Database,
  since: number,
  now: number,
  wallNow: number,
): Promise<AllowListRead> {
  // First: a transaction found ended here has its row in every read below.
  const openSince = await accessChanges.oldestOpenSince(database);
  const bounds = await accessChanges.bounds(database);
  const oldest = bounds?.oldest ?? null;
  const newest = bounds?.newest ?? 0;
  if (since <= 0 || oldest === null || since < oldest - 1 || since > newest) {
    const { version, isPending } = await cursorAfter(
      database,
      await settledVersion(database, wallNow),
      wallNow,
      openSince,
    );
    return { answer: await fullAnswer(database, version, now), isPending };
  }
  const changes = await accessChanges.after(database, since, maxDeltaRows + 1);
  if (changes.length > maxDeltaRows) {
    const { version, isPending } = await cursorAfter(database, since, wallNow, openSince);
    return { answer: await fullAnswer(database, version, now), isPending };
  }
  const version = advanceCursor(since, changes, wallNow, openSince);
  const isPending = pendingAfter(version, changes);
  if (changes.some((change) => change.user_id === null))
    return { answer: await fullAnswer(database, version, now), isPending };
  const last = changes.at(-1)?.version;
  if (last === undefined) return { answer: { version, full: false, entries: [], removed: [] }, isPending };
  const entries: AllowEntry[] = [];
  const dropped = new Set<string>();
  for (const change of changes) if (change.node_tag !== null) dropped.add(change.node_tag);
  for (const device of await allowList.devicesOfChangedUsers(database, since, last)) {
    const entry = entryOfState(device, now);
    if (entry) entries.push(entry);
    else dropped.add(device.node_tag);
  }
  for (const entry of entries) dropped.delete(entry.tag);
  return { answer: { version, full: false, entries, removed: [...dropped] }, isPending };
}

/** The allow-list answer for an agent that applied `since` (readAllowList without the gap flag). */
export async function allowListSince(database: Database, since: number, now: number, wallNow: number) {
  return (await readAllowList(database, since, now, wallNow)).answer;
}
