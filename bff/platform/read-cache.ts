import type { Database } from "bun:sqlite";
import { statement } from "../../db/statements";
import type { Clock } from "./clock";

/**
 * Caches derived reads until the database changes. The server is the database's only
 * connection (exclusive locking), so SQLite's total_changes() on it rises with every
 * insert, update or delete anywhere: a cached value is used only while that counter is
 * unchanged, and for at most `maxAgeMs`, which bounds how late a purely time-driven
 * change (a cancelled period running out) can show.
 */
export function createReadCache<Key, Value>(
  database: Database,
  clock: Clock,
  maxAgeMs: number,
  maxEntries = 10_000,
) {
  const entries = new Map<Key, { value: Value; version: number; storedAt: number }>();
  const version = () => statement<{ v: number }, []>(database, "SELECT total_changes() AS v").get()?.v ?? 0;
  return {
    get(key: Key, compute: () => Value): Value {
      const current = version();
      const now = clock.now();
      const entry = entries.get(key);
      if (entry && entry.version === current && now - entry.storedAt < maxAgeMs) return entry.value;
      const value = compute();
      // Computing may not write; if it did, the next read recomputes anyway.
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, { value, version: current, storedAt: now });
      return value;
    },
  };
}
