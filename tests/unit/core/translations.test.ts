import { describe, expect, test } from "vitest";
import { interpolate, resources, translator, withPluralForms } from "../../../core/i18n";
import { languages } from "../../../core/languages";

const englishKeys = Object.keys(resources.en).sort();
const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe("translation files", () => {
  test.each(languages.filter((language) => language !== "en"))(
    "%s has exactly the keys of en",
    (language) => {
      const keys = Object.keys(resources[language]).sort();
      expect(keys.filter((key) => !englishKeys.includes(key))).toEqual([]);
      expect(englishKeys.filter((key) => !keys.includes(key))).toEqual([]);
    },
  );

  test.each(languages)("%s has no empty texts and keeps every placeholder", (language) => {
    for (const key of englishKeys) {
      const text = resources[language][key as keyof typeof resources.en];
      expect(text.trim(), `${language}:${key}`).not.toBe("");
      expect(placeholders(text), `${language}:${key}`).toEqual(placeholders(resources.en[key as "hero.cta"]));
    }
  });

  test("a Kazakh date before 'бастап' is always the ablative {{since}}, which every language names so", () => {
    // formatDateAs("since") fills {{since}}; a plain {{date}} there would read "қараша бастап".
    for (const [key, text] of Object.entries(resources.kk)) {
      for (const match of text.matchAll(/\{\{\s*(\w+)\s*\}\}\s+бастап/g)) expect(match[1], key).toBe("since");
      if (text.includes("{{since}}")) expect(text, key).toMatch(/\{\{since\}\} бастап/);
    }
    expect(
      Object.values(resources.kk).filter((text) => text.includes("{{since}} бастап")).length,
    ).toBeGreaterThan(0);
  });

  test("a Kazakh date before 'дейін' is always the dative {{until}}, which every language names so", () => {
    // formatDateUntil fills {{until}}; a plain {{date}} there would read "желтоқсан дейін".
    for (const [key, text] of Object.entries(resources.kk)) {
      for (const match of text.matchAll(/\{\{\s*(\w+)\s*\}\}\s+дейін/g)) expect(match[1], key).toBe("until");
      if (text.includes("{{until}}")) expect(text, key).toMatch(/\{\{until\}\} дейін/);
    }
    expect(
      Object.values(resources.kk).filter((text) => text.includes("{{until}} дейін")).length,
    ).toBeGreaterThan(0);
  });

  test("a Kazakh customer reads of no roubles: their prices and first payment are in tenge", () => {
    // Only the panel's revenue, which is counted in both currencies, names the rouble.
    const roubles = Object.entries(resources.kk).filter(
      ([key, text]) => !key.startsWith("panel.") && /рубл/i.test(text),
    );
    expect(roubles.map(([key]) => key)).toEqual([]);
  });

  test.each(languages.filter((language) => language !== "en"))(
    "%s copies no English text that has words in it",
    (language) => {
      // Names read the same in every language; anything else left in English was never translated.
      const names =
        /\b(iPhone|Windows|Google|Yandex|Kannt|ID|E-mail|UTC|CloudPayments|YooKassa)\b|\{\{\s*\w+\s*\}\}/g;
      const copied = englishKeys.filter((key) => {
        const text = resources[language][key as keyof typeof resources.en];
        return (
          text === resources.en[key as keyof typeof resources.en] && /[A-Za-z]/.test(text.replace(names, ""))
        );
      });
      expect(copied).toEqual([]);
    },
  );

  test("interpolation fills named values and leaves unknown ones visible", () => {
    expect(interpolate("Try for {{price}}", { price: "1 ₽" })).toBe("Try for 1 ₽");
    expect(interpolate("{{missing}} here")).toBe("{{missing}} here");
    expect(interpolate("{{missing}}.")).toBe("{{missing}}.");
    // A Russian date ends in "г.": the sentence's own full stop is not doubled.
    expect(interpolate("Доступ открыт до {{date}}.", { date: "22 ноября 2026 г." })).toBe(
      "Доступ открыт до 22 ноября 2026 г.",
    );
    expect(interpolate("Until {{date}}.", { date: "22 November 2026" })).toBe("Until 22 November 2026.");
    expect(interpolate("{{a}}.{{b}}", { a: "x.", b: "y" })).toBe("x.y");
    expect(translator("ru")("footer.offer")).toBe("Публичная оферта");
  });

  test("{{count|form|…}} is the word for the number, in the language's plural forms", () => {
    const ru = (count: number) =>
      interpolate(withPluralForms("{{n}} {{n|минуту|минуты|минут}}", { n: count }, "ru"), { n: count });
    expect([1, 2, 5, 11, 12, 21, 22, 25, 101, 111].map(ru)).toEqual([
      "1 минуту",
      "2 минуты",
      "5 минут",
      "11 минут",
      "12 минут",
      "21 минуту",
      "22 минуты",
      "25 минут",
      "101 минуту",
      "111 минут",
    ]);
    const en = (count: number) =>
      interpolate(withPluralForms("{{n}} {{n|minute|minutes}}", { n: count }, "en"), { n: count });
    expect([0, 1, 2].map(en)).toEqual(["0 minutes", "1 minute", "2 minutes"]);
    // Without the number the placeholder stays visible, like any other.
    expect(withPluralForms("{{n|minute|minutes}}", {}, "en")).toBe("{{n|minute|minutes}}");
    expect(translator("ru")("errors.too_many_promo_codes", { minutes: 3 })).toBe(
      "Слишком много неверных промокодов. Попробуйте снова через 3 минуты.",
    );
  });
});
