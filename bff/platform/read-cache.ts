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
  const store = async (key: Key, version: number, now: number, compute: (key: Key) => Promise<Value>) => {
    const storedAtReal = Date.now();
    const value = await compute(key);
    // The version is the one read before computing: a write made meanwhile (by the
    // computation or by other work) makes the next read recompute.
    if (entries.size >= maxEntries) entries.clear();
    entries.set(key, { value, version, storedAt: now, storedAtReal });
    return value;
  };
  return {
    /**
     * The cached value itself while it is valid, else the computation's promise: a hit
     * makes no promise, so a hot route that returns it waits on nothing. `compute` is given
     * the key (a hot caller passes one function, not a new closure each time); `now`, when
     * the caller has already read the clock.
     */
    get(key: Key, compute: (key: Key) => Promise<Value>, now = clock.now()): Value | Promise<Value> {
      const current = database.changeVersion();
      const entry = entries.get(key);
      if (entry && entry.version === current && isFresh(entry, now)) return entry.value;
      return store(key, current, now, compute);
    },
  };
}
