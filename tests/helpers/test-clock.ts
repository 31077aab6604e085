import { OffsetClock } from "../../bff/platform/clock";
import { advanceClockOffset, loadClockOffset } from "../../bff/platform/clock-offset";
import type { Database } from "../../db/database";

/**
 * The test clock's starting instant. `KANNT_TEST_CLOCK_START` (ISO 8601, e.g.
 * `2027-01-31T00:00:00Z`) starts every in-process test app there instead of at the wall
 * clock, so the suites can be run at month ends and local midnights (docs/code.md, Tests): a
 * test that holds only on some calendar days fails on the day it is run at, not at random.
 * The clock only moves forward, so the start must lie ahead of the wall clock.
 */
export function testClockStartOffset(environment = process.env): number {
  const start = environment.KANNT_TEST_CLOCK_START;
  if (!start) return 0;
  const startMs = Date.parse(start);
  if (Number.isNaN(startMs)) {
    throw new Error(`KANNT_TEST_CLOCK_START must be an ISO 8601 instant, not "${start}".`);
  }
  if (startMs < Date.now()) {
    throw new Error(
      `KANNT_TEST_CLOCK_START (${start}) must lie ahead of the wall clock: the clock only moves forward.`,
    );
  }
  return startMs - Date.now();
}

/** A fresh test clock at the configured start (or the wall clock). */
export function makeTestClock(): OffsetClock {
  return new OffsetClock(testClockStartOffset());
}

/**
 * Makes the database's shared test-clock offset (bff/platform/clock-offset.ts) at least
 * `startOffset`, as on a demo server whose clock was moved there, and brings `clock` to
 * it: `POST /api/dev/clock` adds its days to the stored offset, so a clock started ahead
 * of it would not move until the days asked for passed the start. Never moves a stored
 * offset back, so a server restarted on its database keeps the clock it had.
 */
export async function shareTestClock(
  database: Database,
  clock: OffsetClock,
  startOffset = clock.offset,
): Promise<void> {
  // Read and moved in one transaction: two instances starting on one database move it once.
  const offset = await database.transaction(async () => {
    const stored = await loadClockOffset(database);
    return stored >= startOffset ? stored : advanceClockOffset(database, startOffset - stored);
  });
  clock.catchUp(offset);
}
