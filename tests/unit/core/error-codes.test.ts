import { describe, expect, test } from "vitest";
import { AppError, errorStatus } from "../../../bff/platform/errors";
import { resources } from "../../../core/i18n";
import { languages } from "../../../core/languages";

const codes = Object.keys(errorStatus);

describe("the code table (bff/platform/errors.ts)", () => {
  test("is the one list: every code has its words in the catalogue, and the catalogue words no other", () => {
    const worded = Object.keys(resources.en)
      .filter((key) => key.startsWith("errors."))
      .map((key) => key.slice("errors.".length));
    expect(worded.sort()).toEqual([...codes].sort());
  });

  test("codes are lower snake case and name what happened, never an HTTP status", () => {
    for (const code of codes) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(code).not.toMatch(/^(bad_request|validation|unauthorized|forbidden|conflict|rate_limited)$/);
    }
  });
});

describe("a refusal's message comes from the catalogue, with its values", () => {
  const refusal = new AppError("too_many_promo_codes", { minutes: 12 }, { retryAfterSeconds: 700 });
  const expected = {
    en: "Too many wrong promo codes. Try again in 12 minutes.",
    ru: "Слишком много неверных промокодов. Попробуйте снова через 12 минут.",
    zh: "输入错误的优惠码次数过多，请在 12 分钟后重试。",
    kk: "Қате промокод тым көп рет енгізілді. 12 минуттан кейін қайталап көріңіз.",
  };

  test.each(languages)("in %s", (language) => {
    expect(refusal.bodyIn(language)).toEqual({
      success: false,
      error: { code: "too_many_promo_codes", message: expected[language] },
    });
    expect(refusal.status).toBe(429);
  });

  test("Russian and English say the minutes in the number's form", () => {
    const words = (minutes: number) => ({
      ru: new AppError("too_many_device_changes", { minutes }).bodyIn("ru").error.message,
      en: new AppError("too_many_device_changes", { minutes }).bodyIn("en").error.message,
    });
    expect(words(1).ru).toMatch(/через 1 минуту\.$/);
    expect(words(3).ru).toMatch(/через 3 минуты\.$/);
    expect(words(11).ru).toMatch(/через 11 минут\.$/);
    expect(words(21).ru).toMatch(/через 21 минуту\.$/);
    expect(words(60).ru).toMatch(/через 60 минут\.$/);
    expect(words(1).en).toMatch(/in 1 minute\.$/);
    expect(words(2).en).toMatch(/in 2 minutes\.$/);
  });

  test("a value that reads differently per language is worded in the caller's", () => {
    const refusal = new AppError("already_cancelled", {
      until: (language) => (language === "ru" ? "1 марта 2027 г." : "1 March 2027"),
    });
    expect(refusal.message).toBe(
      "This subscription is already cancelled. Access stays open until 1 March 2027, and nothing more will be charged.",
    );
    expect(refusal.bodyIn("ru").error.message).toBe(
      "Эта подписка уже отменена. Доступ сохранится до 1 марта 2027 г., списаний больше не будет.",
    );
  });

  test("the error's own message is English: logs and the operator CLI read it", () => {
    expect(new AppError("operator_exists", { name: "alice" }).message).toBe(
      'The operator "alice" already exists.',
    );
  });
});
