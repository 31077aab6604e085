import { describe, expect, test } from "vitest";
import { calendarInstants } from "../../../scripts/calendar-instants";
import { testClockStartOffset } from "../../helpers/test-clock";

describe("the instants `npm run test:calendar` starts the test clock at", () => {
  test("from late November 2026: the next month ends, New Year at UTC, Moscow and Almaty, then the wall clock", () => {
    expect(calendarInstants(Date.parse("2026-11-25T21:57:00Z")).map((instant) => instant.start)).toEqual([
      "2027-01-31T00:00:00Z",
      "2027-02-28T00:00:00Z",
      "2028-02-29T00:00:00Z",
      "2027-03-31T00:00:00Z",
      "2026-12-31T23:59:00Z",
      "2026-12-31T21:00:00Z",
      "2026-12-31T19:00:00Z",
      undefined,
    ]);
  });

  test("each lies at least a day ahead, so a run's last test app can still start there", () => {
    const now = Date.parse("2027-01-30T12:00:00Z");
    const starts = calendarInstants(now).flatMap((instant) => (instant.start ? [instant.start] : []));
    expect(starts.slice(0, 2)).toEqual(["2028-01-31T00:00:00Z", "2027-02-28T00:00:00Z"]);
    expect(starts[2]).toBe("2028-02-29T00:00:00Z");
    for (const start of starts) expect(Date.parse(start) - now).toBeGreaterThanOrEqual(86_400_000);
  });

  test("29 February only in leap years, after 2100 too", () => {
    expect(calendarInstants(Date.parse("2096-03-01T00:00:00Z"))[2]?.start).toBe("2104-02-29T00:00:00Z");
  });
});

describe("KANNT_TEST_CLOCK_START", () => {
  test("starts the clock at the instant; unset, at the wall clock", () => {
    const start = Date.now() + 40 * 86_400_000;
    const before = Date.now();
    const offset = testClockStartOffset({ KANNT_TEST_CLOCK_START: new Date(start).toISOString() });
    const after = Date.now();
    // The wall clock when the offset was taken, plus the offset, is the start.
    expect(offset).toBeGreaterThanOrEqual(start - after);
    expect(offset).toBeLessThanOrEqual(start - before);
    expect(testClockStartOffset({})).toBe(0);
  });

  test("refuses a start that is not an instant, or that lies behind the wall clock", () => {
    expect(() => testClockStartOffset({ KANNT_TEST_CLOCK_START: "end of January" })).toThrow(/ISO 8601/);
    expect(() => testClockStartOffset({ KANNT_TEST_CLOCK_START: "2020-01-31T00:00:00Z" })).toThrow(
      /ahead of the wall clock/,
    );
  });
});
