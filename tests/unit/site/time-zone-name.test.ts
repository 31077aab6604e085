import { afterEach, describe, expect, test, vi } from "vitest";
import { resources } from "../../../core/i18n";
import type { Language } from "../../../core/languages";
import { timeZoneName } from "../../../src/lib/time-zone-name";

const words = (language: Language) => (key: keyof typeof resources.en) => resources[language][key];
const winter = Date.UTC(2027, 0, 15);

describe("the panel names the zone of its times in the reader's language", () => {
  afterEach(() => vi.unstubAllGlobals());

  test("Moscow and Almaty by the panel's own words, never their IANA ids", () => {
    expect(timeZoneName("Europe/Moscow", "ru", words("ru"))).toBe("московское время");
    expect(timeZoneName("Europe/Moscow", "en", words("en"))).toBe("Moscow time");
    expect(timeZoneName("Europe/Moscow", "zh", words("zh"))).toBe("莫斯科时间");
    expect(timeZoneName("Europe/Moscow", "kk", words("kk"))).toBe("Мәскеу уақыты");
    expect(timeZoneName("Asia/Almaty", "ru", words("ru"))).toBe("алматинское время");
    expect(timeZoneName("Asia/Almaty", "kk", words("kk"))).toBe("Алматы уақыты");
    expect(timeZoneName("Asia/Almaty", "en", words("en"))).toBe("Almaty time");
    expect(timeZoneName("Asia/Almaty", "zh", words("zh"))).toBe("阿拉木图时间");
    for (const language of ["ru", "en", "zh", "kk"] as const)
      expect(timeZoneName("Etc/UTC", language, words(language))).toBe("UTC");
  });

  test("other zones by Intl's name in that language, or by their offset where it has none", () => {
    expect(timeZoneName("Europe/Berlin", "en", words("en"), winter)).toBe("Central European Time");
    expect(timeZoneName("Europe/Berlin", "ru", words("ru"), winter)).toBe("Центральная Европа");
    // A runtime with no Kazakh zone names (Chromium) answers in English: the offset instead.
    const Original = Intl.DateTimeFormat;
    vi.stubGlobal("Intl", {
      ...Intl,
      DateTimeFormat: class extends Original {
        constructor(locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
          super(locales === "kk" ? "en" : locales, options);
        }
      },
    });
    expect(timeZoneName("Europe/Berlin", "kk", words("kk"), winter)).toBe("UTC+1");
    expect(timeZoneName("Asia/Kolkata", "kk", words("kk"), winter)).toBe("UTC+5:30");
    expect(timeZoneName("Europe/Moscow", "kk", words("kk"), winter)).toBe("Мәскеу уақыты");
  });
});
