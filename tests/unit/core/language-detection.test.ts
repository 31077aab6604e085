import { afterEach, describe, expect, test } from "vitest";
import {
  currencyOf,
  detectLanguage,
  languageCookieName,
  languageStorageKey,
  parseAcceptLanguage,
  readCookie,
  toLanguage,
} from "../../../core/languages";
import { persistLanguage, storedLanguage } from "../../../src/lib/i18n/persist-language";
import { installBrowserGlobals } from "../../helpers/browser-globals";

describe("language detection order", () => {
  test("local storage wins over the cookie and the browser", () => {
    expect(detectLanguage({ stored: "kk", cookie: "ru", browser: ["zh-CN"] })).toBe("kk");
  });

  test("the cookie wins over the browser when nothing is stored", () => {
    expect(detectLanguage({ stored: null, cookie: "ru", browser: ["zh-CN"] })).toBe("ru");
  });

  test("the browser's first supported language is used next", () => {
    expect(detectLanguage({ browser: ["de-DE", "fr", "zh-TW", "ru"] })).toBe("zh");
  });

  test("unsupported values at every level fall back to English", () => {
    expect(detectLanguage({ stored: "de", cookie: "fr", browser: ["es-ES"] })).toBe("en");
    expect(detectLanguage({})).toBe("en");
  });

  test("an unsupported stored value does not hide a supported cookie", () => {
    expect(detectLanguage({ stored: "xx", cookie: "kk" })).toBe("kk");
  });

  test("region and case variants map to the interface language", () => {
    expect(toLanguage("KK-kz")).toBe("kk");
    expect(toLanguage("ru_RU")).toBe("ru");
    expect(toLanguage("")).toBeUndefined();
  });

  test("Accept-Language is ordered by quality, ties by position", () => {
    expect(parseAcceptLanguage("de;q=0.9, kk;q=0.95, en;q=0.1, *;q=0.5, fr;q=0")).toEqual(["kk", "de", "en"]);
    expect(parseAcceptLanguage(null)).toEqual([]);
  });

  test("the currency follows the language: tenge for kk, roubles otherwise", () => {
    expect(currencyOf("kk")).toBe("KZT");
    expect(["ru", "en", "zh"].map((language) => currencyOf(language as "ru"))).toEqual(["RUB", "RUB", "RUB"]);
  });
});

describe("language caching", () => {
  afterEach(() => {
    Reflect.deleteProperty(globalThis, "localStorage");
    Reflect.deleteProperty(globalThis, "document");
  });

  test("the choice is cached in local storage and in a year-long cookie", () => {
    const browser = installBrowserGlobals();
    persistLanguage("zh");
    expect(browser.storage.get(languageStorageKey)).toBe("zh");
    expect(readCookie(document.cookie, languageCookieName)).toBe("zh");
    expect(browser.written[0]).toMatch(/path=\/; max-age=31536000; samesite=lax/);
  });

  test("a cached choice is what detection finds next time", () => {
    installBrowserGlobals({ cookie: `${languageCookieName}=ru` });
    persistLanguage("kk");
    expect(
      detectLanguage({ stored: storedLanguage(), cookie: readCookie(document.cookie, languageCookieName) }),
    ).toBe("kk");
  });

  test("reading a cookie ignores other cookies and bad encodings", () => {
    expect(readCookie("a=1; i18next=ru; b=2", "i18next")).toBe("ru");
    expect(readCookie("i18next=%E0%A4%A", "i18next")).toBeUndefined();
    expect(readCookie("", "i18next")).toBeUndefined();
  });
});
