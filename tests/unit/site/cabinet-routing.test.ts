import { describe, expect, test } from "vitest";
import { platformName } from "../../../src/lib/cabinet-view";
import { normalizeLoginQuery, safeNextPath } from "../../../src/lib/login-query";

describe("where /login returns after sign-in", () => {
  test("a path on this site, with its query, is kept", () => {
    expect(safeNextPath("/profile?from=mail")).toBe("/profile?from=mail");
    expect(safeNextPath("/mobileShop")).toBe("/mobileShop");
    expect(safeNextPath(decodeURIComponent("%2Fpromo%3Fx%3D1"))).toBe("/promo?x=1");
  });

  test("anything that could leave the site, or nothing, is the cabinet", () => {
    for (const next of [
      null,
      undefined,
      "",
      "profile",
      "//evil.example/profile",
      "/\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "/\t/evil.example",
      "/\n/evil.example",
    ]) {
      expect(safeNextPath(next), String(next)).toBe("/profile");
    }
  });

  test("a price card's j is the tariff the cabinet preselects", () => {
    expect(normalizeLoginQuery("?j=6").tariff).toBe(6);
    expect(normalizeLoginQuery("?j=12&next=%2Fprofile").tariff).toBe(12);
    expect(normalizeLoginQuery("?j=5").tariff).toBe(1);
  });
});

test("device platforms are shown by their product names", () => {
  expect(platformName("android")).toBe("Android");
  expect(platformName("ios")).toBe("iOS");
  expect(platformName("Something")).toBe("Something");
});
