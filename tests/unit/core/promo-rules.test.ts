import { describe, expect, test } from "vitest";
import {
  expirationAfter,
  newPromoProblem,
  normalizePromoCode,
  promoFieldErrors,
  promoTypes,
  storedPromoCode,
} from "../../../core/promo-rules";

// The server's today: 31 January, so month ends clamp (28 February) and a leap year shows.
const now = Date.parse("2027-01-31T10:00:00.000Z");
const valid = { promoCode: "SPRING26", promoType: "DISCOUNT", discount: 0.25, expirationDate: "2027-02-28" };
const problemOf = (change: Partial<typeof valid>) => newPromoProblem({ ...valid, ...change }, now);

describe("a promo code's code (spec §5)", () => {
  test("5 characters is enough, 4 is too short, counted after trimming", () => {
    expect(problemOf({ promoCode: "ABCDE" })).toBeUndefined();
    expect(problemOf({ promoCode: "ABCD" })).toBe("promo_code_too_short");
    expect(problemOf({ promoCode: "  ABCD  " })).toBe("promo_code_too_short");
    expect(problemOf({ promoCode: "" })).toBe("promo_code_too_short");
  });

  test("Latin letters in any case, digits, underscore and hyphen only", () => {
    expect(problemOf({ promoCode: "abc_1" })).toBeUndefined();
    expect(problemOf({ promoCode: "A-B_C9" })).toBeUndefined();
    for (const code of ["BAD CODE", "ÄBCDE", "ABC.DE", "ПРОМО1", "ABCD!"])
      expect(problemOf({ promoCode: code }), code).toBe("promo_code_invalid_characters");
  });

  test("length is checked before characters", () => {
    expect(problemOf({ promoCode: "A B" })).toBe("promo_code_too_short");
  });

  test("is kept trimmed and upper case; the form drops what cannot be typed", () => {
    expect(storedPromoCode("  spring-26 ")).toBe("SPRING-26");
    expect(normalizePromoCode("spring 26!")).toBe("SPRING26");
    expect(normalizePromoCode("a-b_c")).toBe("A-B_C");
  });
});

describe("a promo code's kind", () => {
  test("only the kinds on offer", () => {
    expect(promoTypes.map((kind) => kind.type)).toEqual(["DISCOUNT"]);
    expect(problemOf({ promoType: "FREE_YEAR" })).toBe("promo_type_unknown");
    expect(problemOf({ promoType: "discount" })).toBe("promo_type_unknown");
  });
});

describe("a promo code's discount: 20 to 50 percent in steps of 5, sent as a fraction", () => {
  test.each([0.2, 0.25, 0.35, 0.45, 0.5])("%s is accepted", (discount) => {
    expect(problemOf({ discount })).toBeUndefined();
  });

  test.each([0.15, 0.55, 0.22, 0.255, 0, -0.25, 1, Number.NaN, Number.POSITIVE_INFINITY])(
    "%s is refused",
    (discount) => {
      expect(problemOf({ discount })).toBe("promo_discount_out_of_range");
    },
  );
});

describe("a promo code's validity: 1 to 12 whole months from the server's today", () => {
  test("the last day of 1 to 12 months is accepted, month ends clamped", () => {
    expect(expirationAfter(1, now)).toBe("2027-02-28");
    expect(expirationAfter(12, now)).toBe("2028-01-31");
    expect(expirationAfter(13, Date.parse("2027-01-31T00:00:00Z"))).toBe("2028-02-29");
    for (let months = 1; months <= 12; months++)
      expect(problemOf({ expirationDate: expirationAfter(months, now) }), String(months)).toBeUndefined();
  });

  test("a day either way is accepted, for an operator a time zone away", () => {
    expect(problemOf({ expirationDate: "2027-02-27" })).toBeUndefined();
    expect(problemOf({ expirationDate: "2027-03-01" })).toBeUndefined();
    expect(problemOf({ expirationDate: "2027-02-26" })).toBe("promo_validity_out_of_range");
    expect(problemOf({ expirationDate: "2027-03-02" })).toBe("promo_validity_out_of_range");
  });

  test("today, 13 months, the past and anything not a date are refused", () => {
    for (const expirationDate of [
      "2027-01-31",
      expirationAfter(13, now),
      "2020-01-01",
      "2027-2-28",
      "2027-02-28x",
      "28.02.2027",
      "",
    ])
      expect(problemOf({ expirationDate }), expirationDate).toBe("promo_validity_out_of_range");
  });
});

describe("the first broken rule is the one answered", () => {
  test("code, then kind, then discount, then validity", () => {
    const broken = { promoCode: "ABC", promoType: "FREE", discount: 0.1, expirationDate: "x" };
    expect(newPromoProblem(broken, now)).toBe("promo_code_too_short");
    expect(newPromoProblem({ ...broken, promoCode: "ABCDE" }, now)).toBe("promo_type_unknown");
    expect(newPromoProblem({ ...broken, promoCode: "ABCDE", promoType: "DISCOUNT" }, now)).toBe(
      "promo_discount_out_of_range",
    );
    expect(
      newPromoProblem({ ...broken, promoCode: "ABCDE", promoType: "DISCOUNT", discount: 0.3 }, now),
    ).toBe("promo_validity_out_of_range");
  });
});

describe("the panel's form marks each field that breaks a rule", () => {
  test("the accepted edges mark nothing", () => {
    expect(promoFieldErrors("ABCDE", 20, 1)).toEqual({});
    expect(promoFieldErrors("ABCDE", 50, 12)).toEqual({});
  });

  test.each([
    ["ABCD", 20, 1, { code: true }],
    ["", 20, 1, { code: true }],
    ["ABCDE", 15, 1, { discount: true }],
    ["ABCDE", 55, 1, { discount: true }],
    ["ABCDE", 22, 1, { discount: true }],
    ["ABCDE", 20.5, 1, { discount: true }],
    ["ABCDE", 20, 0, { validity: true }],
    ["ABCDE", 20, 13, { validity: true }],
    ["ABCDE", 20, 1.5, { validity: true }],
    ["AB", 10, 24, { code: true, discount: true, validity: true }],
  ] as const)("%j, %d%%, %d months: %j", (code, discount, months, expected) => {
    expect(promoFieldErrors(code, discount, months)).toEqual(expected);
  });
});
