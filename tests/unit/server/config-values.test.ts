import { describe, expect, test } from "vitest";
import { days, flag, oneOf, textOf, wholeNumber } from "../../../bff/platform/config-values";

// The one parser every server setting goes through (config.ts): a value is taken exactly
// as the variable documents it, or refused with its name, what it takes, and what was given.

const seconds = { min: 0, max: 86_400, fallback: 60, unit: "seconds", note: "0 turns it off" };

describe("wholeNumber", () => {
  test("unset is the fallback; digits within the range are taken", () => {
    expect(wholeNumber("INTERVAL", undefined, seconds)).toBe(60);
    expect(wholeNumber("INTERVAL", "0", seconds)).toBe(0);
    expect(wholeNumber("INTERVAL", "90", seconds)).toBe(90);
    expect(wholeNumber("INTERVAL", "86400", seconds)).toBe(86_400);
  });

  test.each([
    "1m",
    "90s",
    "1e3",
    "0x10",
    "1.0",
    "2.5",
    "-1",
    "+5",
    "1 000",
    "abc",
    "86401",
    "99999999999999999999",
  ])('"%s" is refused, naming the variable, what it takes and the value', (raw) => {
    expect(() => wholeNumber("INTERVAL", raw, seconds)).toThrow(
      `INTERVAL must be a whole number of seconds from 0 to 86400 (0 turns it off), got "${raw}".`,
    );
  });

  test("without a unit or note the sentence leaves them out", () => {
    expect(() => wholeNumber("PORT", "abc", { min: 0, max: 65535, fallback: 3000 })).toThrow(
      'PORT must be a whole number from 0 to 65535, got "abc".',
    );
  });
});

describe("days", () => {
  test("whole days from 1 to 3650", () => {
    expect(days("KEEP_DAYS", undefined, 90)).toBe(90);
    expect(days("KEEP_DAYS", "1", 90)).toBe(1);
    expect(days("KEEP_DAYS", "3650", 90)).toBe(3650);
    for (const raw of ["0", "-1", "3651", "7d", "2.5"])
      expect(() => days("KEEP_DAYS", raw, 90)).toThrow(
        `KEEP_DAYS must be a whole number of days from 1 to 3650, got "${raw}".`,
      );
  });
});

describe("oneOf", () => {
  const levels = ["debug", "info"] as const;
  test("a listed value exactly as listed, numbers as their digits; unset is the fallback", () => {
    expect(oneOf("LEVEL", "info", levels, { fallback: undefined, accepts: '"debug" or "info"' })).toBe(
      "info",
    );
    expect(oneOf("LEVEL", undefined, levels, { fallback: undefined, accepts: "" })).toBeUndefined();
    expect(oneOf("CODE", "5", [0, 5] as const, { fallback: 0, accepts: "0 or 5" })).toBe(5);
  });

  test.each(["INFO", "verbose", "05"])('"%s" is refused with the words of what is accepted', (raw) => {
    expect(() =>
      oneOf("LEVEL", raw, [...levels, "5"], { fallback: undefined, accepts: '"debug", "info" or "5"' }),
    ).toThrow(`LEVEL must be "debug", "info" or "5", got "${raw}".`);
  });
});

describe("flag", () => {
  test("1/true/yes/on and 0/false/no/off in any letter case; unset is the fallback", () => {
    for (const raw of ["1", "true", "TRUE", "yes", "On"]) expect(flag("SWITCH", raw, false)).toBe(true);
    for (const raw of ["0", "false", "False", "no", "OFF"]) expect(flag("SWITCH", raw, true)).toBe(false);
    expect(flag("SWITCH", undefined, true)).toBe(true);
  });

  test("anything else is refused", () => {
    expect(() => flag("SWITCH", "maybe", false)).toThrow(
      'SWITCH must be 1, true, yes or on, or 0, false, no or off, got "maybe".',
    );
  });
});

describe("textOf", () => {
  test("trimmed; blank is unset, as an empty line of an env file means", () => {
    expect(textOf({ NAME: "  value " }, "NAME")).toBe("value");
    expect(textOf({ NAME: "   " }, "NAME")).toBeUndefined();
    expect(textOf({}, "NAME")).toBeUndefined();
  });
});
