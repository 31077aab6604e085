import { describe, expect, test } from "vitest";
import { interpolate, resources, translator } from "../../core/i18n";
import { languages } from "../../core/languages";

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
});
