import { describe, expect, test } from "vitest";
import { addMonths, addMonthsOnDay, dayOfMonth } from "../../../core/calendar";

const at = (iso: string) => Date.parse(iso);
const iso = (time: number) => new Date(time).toISOString();

describe("calendar months in UTC", () => {
  test("addMonths clamps to a shorter month's last day and keeps the time of day", () => {
    expect(iso(addMonths(at("2027-01-31T10:30:00Z"), 1))).toBe("2027-02-28T10:30:00.000Z");
    expect(iso(addMonths(at("2028-01-31T10:30:00Z"), 1))).toBe("2028-02-29T10:30:00.000Z");
    expect(iso(addMonths(at("2027-03-31T00:00:00Z"), -1))).toBe("2027-02-28T00:00:00.000Z");
    expect(iso(addMonths(at("2027-12-15T00:00:00Z"), 12))).toBe("2028-12-15T00:00:00.000Z");
  });

  test("addMonthsOnDay lands on the anchor's day again once the month is long enough", () => {
    const february = at("2027-02-28T08:00:00Z");
    expect(iso(addMonthsOnDay(february, 1, 31))).toBe("2027-03-31T08:00:00.000Z");
    expect(iso(addMonthsOnDay(february, 2, 31))).toBe("2027-04-30T08:00:00.000Z");
    expect(iso(addMonthsOnDay(february, 1, 30))).toBe("2027-03-30T08:00:00.000Z");
    expect(iso(addMonthsOnDay(february, 12, 29))).toBe("2028-02-29T08:00:00.000Z");
    expect(iso(addMonthsOnDay(february, -1, 31))).toBe("2027-01-31T08:00:00.000Z");
    expect(dayOfMonth(at("2027-01-31T23:59:00Z"))).toBe(31);
  });
});
