import type { Database } from "../../db/database";
import { settings } from "../../db/queries/settings";
import type { OffsetClock } from "./clock";

/**
 * The demo test clock's offset lives in the database: it survives restarts (a crash test
 * restarts mid-run), and with several instances on one database there is one test clock
 * (DESIGN §15), which every instance follows.
 */
export async function loadClockOffset(database: Database): Promise<number> {
  const row = await settings.clockOffset(database);
  return row ? Number(row.value) || 0 : 0;
}

/**
 * Moves the shared clock forward by `milliseconds` and answers the new offset. Read and
 * written in one transaction, so two instances moving it at once add both moves.
 */
export function advanceClockOffset(database: Database, milliseconds: number): Promise<number> {
  return database.transaction(async () => {
    const offset = (await loadClockOffset(database)) + milliseconds;
    await settings.setClockOffset(database, String(offset));
    return offset;
  });
}

/**
 * On a shared database, another instance may move the clock: this one reads the offset
 * twice a second, so it sees a move within 1 s. Returns the function that stops following.
 */
export function followClockOffset(database: Database, clock: OffsetClock, everyMs = 500): () => void {
  if (!database.isShared) return () => {};
  let isReading = false;
  const timer = setInterval(() => {
    if (isReading) return;
    isReading = true;
    loadClockOffset(database)
      .then((offset) => clock.catchUp(offset))
      // A database that is briefly unreachable only delays the next reading.
      .catch(() => undefined)
      .finally(() => {
        isReading = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
