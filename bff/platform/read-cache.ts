import type { Database } from "../../db/database";
import type { Clock } from "./clock";

/**
 * How long an entry may live when other instances write the same database (DESIGN §15),
 * in real time: a test clock that stands still must not keep another instance's write hidden.
 */
const sharedMaxAgeMs = 1000;

/**
 * Caches derived reads until the database changes. `database.changeVersion()` moves with
 * every insert, update or delete this process makes (on SQLite also with another
 * connection's commit, such as the operator CLI's): a cached value is used only while it
 * is unchanged, and for at most `maxAgeMs`, which bounds how late a purely time-driven
 * change (a cancelled period running out) can show. Other instances' writes to a shared
 * database (PostgreSQL) do not move it, so there an entry lives at most a second,
 * whatever `maxAgeMs` says.
 */
export function createReadCache<Key, Value>(
  database: Database,
  clock: Clock,
  maxAgeMs: number,
  maxEntries = 10_000,
) {
  const entries = new Map<Key, { value: Value; version: number; storedAt: number; storedAtReal: number }>();
  const isFresh = (entry: { storedAt: number; storedAtReal: number }, now: number) =>
    now - entry.storedAt < maxAgeMs &&
    (!database.isShared || Date.now() - entry.storedAtReal < sharedMaxAgeMs);
  return {
    async get(key: Key, compute: () => Promise<Value>): Promise<Value> {
      const current = database.changeVersion();
      const now = clock.now();
      const entry = entries.get(key);
      if (entry && entry.version === current && isFresh(entry, now)) return entry.value;
      const storedAtReal = Date.now();
      const value = await compute();
      // The version is the one read before computing: a write made meanwhile (by the
      // computation or by other work) makes the next read recompute.
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, { value, version: current, storedAt: now, storedAtReal });
      return value;
    },
  };
}
