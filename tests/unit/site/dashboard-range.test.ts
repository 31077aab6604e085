import { describe, expect, test } from "vitest";
import {
  customProblem,
  daysOf,
  defaultRange,
  rangeFromSearch,
  searchOf,
} from "../../../src/lib/dashboard-range";

const noon = Date.UTC(2026, 10, 22, 12);

describe("the dashboard's range", () => {
  test("a preset ends today by the clock given and counts today in", () => {
    expect(daysOf({ kind: "preset", days: 7 }, noon)).toEqual({ from: "2026-11-16", to: "2026-11-22" });
    expect(daysOf({ kind: "preset", days: 30 }, noon)).toEqual({ from: "2026-10-24", to: "2026-11-22" });
    expect(daysOf({ kind: "preset", days: 365 }, noon)).toEqual({ from: "2025-11-23", to: "2026-11-22" });
    // A minute before midnight UTC is still the same day, whatever the browser's zone.
    expect(daysOf({ kind: "preset", days: 7 }, Date.UTC(2026, 10, 22, 23, 59))?.to).toBe("2026-11-22");
  });

  test("two chosen days are asked for as they are", () => {
    expect(daysOf({ kind: "custom", from: "2026-10-01", to: "2026-11-15" }, noon)).toEqual({
      from: "2026-10-01",
      to: "2026-11-15",
    });
  });

  test("chosen days must be real dates, in order, at most 366 days", () => {
    expect(customProblem("2026-10-01", "2026-11-15")).toBeUndefined();
    expect(customProblem("2026-11-15", "2026-11-15")).toBeUndefined();
    expect(customProblem("", "2026-11-15")).toBe("dates");
    expect(customProblem("2026-02-30", "2026-03-15")).toBe("dates");
    expect(customProblem("2026-11-10", "2026-11-01")).toBe("order");
    expect(customProblem("2025-01-01", "2026-01-01")).toBeUndefined();
    expect(customProblem("2025-01-01", "2026-01-02")).toBe("length");
    expect(customProblem("2024-01-01", "2024-12-31")).toBeUndefined();
  });

  test("the address keeps the range, and a malformed one falls back to the last 30 days", () => {
    for (const range of [
      { kind: "preset", days: 90 },
      { kind: "custom", from: "2026-01-01", to: "2026-03-31" },
    ] as const)
      expect(rangeFromSearch(searchOf(range))).toEqual(range);
    expect(rangeFromSearch("")).toEqual(defaultRange);
    expect(rangeFromSearch("?days=12")).toEqual(defaultRange);
    expect(rangeFromSearch("?from=2026-11-10&to=2026-11-01")).toEqual(defaultRange);
    expect(rangeFromSearch("?from=2026-11-01")).toEqual(defaultRange);
  });
});
