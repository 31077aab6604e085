import { OffsetClock } from "../../bff/platform/clock";

/**
 * The test clock's starting instant. `KANNT_TEST_CLOCK_START` (ISO 8601, e.g.
 * `2027-01-31T00:00:00Z`) starts every in-process test app there instead of at the wall
 * clock, so the suites can be run at month ends and local midnights (README, Tests): a
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
