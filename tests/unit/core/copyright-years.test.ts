import { describe, expect, test } from "vitest";
import { copyrightYears, switcherLanguages } from "../../../core/company";

describe("copyright years", () => {
  test("run from the founding year to the given year", () => {
    expect(copyrightYears(2026)).toBe("2021–2026");
    expect(copyrightYears(2031)).toBe("2021–2031");
  });

  test("a single year while it is still the founding year", () => {
    expect(copyrightYears(2021)).toBe("2021");
  });
});

test("the switcher follows the spec's footer order", () => {
  expect(switcherLanguages).toEqual(["ru", "en", "kk", "zh"]);
});
