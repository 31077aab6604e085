import type { Database } from "../../../../../db/database";
import { accessChanges } from "../../../../../db/queries/access-changes";

/** How often the log's newest version is read while an agent waits. */
const pollMs = 250;
/** How often this process's own write counter is looked at (no query): a local write wakes waiters at once. */
const glanceMs = 25;

type Waiter = { beyond: number | null; deadline: number; resolve: () => void };

export type ChangeWatcher = {
  /**
   * Resolves once the log's newest version is above `beyond` (null: at the next reading),
   * at `deadline` (wall-clock ms), or when the server stops, whichever comes first.
   */
  wait(beyond: number | null, deadline: number): Promise<void>;
};

/**
 * One watcher per process for every long-polling agent (DESIGN §8): while anyone waits it
 * reads `MAX(version)` every 250 ms, so 20 waiting agents cost one query, not 20; and
 * sooner when this process has written (SQLite: any connection's commit), which its
 * write counter shows without a query. Nobody waiting, nothing runs.
 */
export function createChangeWatcher(database: Database, stopping: AbortSignal): ChangeWatcher {
  const waiters = new Set<Waiter>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let isReading = false;
  let lastReadAt = 0;
  let lastWrites = database.changeVersion();

  /** `newest` is what a reading found (undefined: no reading now, or it failed). */
  const settle = (newest: number | undefined, hasRead: boolean) => {
    const wallNow = Date.now();
    for (const waiter of waiters) {
      const isBeyond = waiter.beyond === null ? hasRead : newest !== undefined && newest > waiter.beyond;
      if (isBeyond || wallNow >= waiter.deadline || stopping.aborted) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  const read = async () => {
    isReading = true;
    lastReadAt = Date.now();
    lastWrites = database.changeVersion();
    let newest: number | undefined;
    try {
      newest = await accessChanges.newest(database);
    } catch {
      // A database briefly unreachable only delays the answer; the waiters' deadlines still hold.
    }
    isReading = false;
    settle(newest, true);
  };

  const glance = async () => {
    timer = undefined;
    if (waiters.size === 0) return;
    const isDue = Date.now() - lastReadAt >= pollMs || database.changeVersion() !== lastWrites;
    if (isDue && !isReading) await read();
    else settle(undefined, false);
    if (waiters.size > 0) schedule();
  };

  function schedule() {
    if (timer) return;
    timer = setTimeout(glance, glanceMs);
    // Never what keeps the process alive: the waiting request does that.
    timer.unref?.();
  }

  stopping.addEventListener("abort", () => settle(undefined, false), { once: true });

  return {
    wait(beyond, deadline) {
      if (stopping.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiters.add({ beyond, deadline, resolve });
        schedule();
      });
    },
  };
}
