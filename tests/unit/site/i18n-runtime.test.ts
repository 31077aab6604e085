import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { $language, $texts, changeLanguage, provideWords, translate } from "../../../src/lib/i18n/runtime";

beforeEach(() => {
  // What the runtime touches of the page: the root element's lang and the language cookie.
  vi.stubGlobal("document", { documentElement: { lang: "en" }, cookie: "" });
  $texts.set(undefined);
  $language.set("en");
});
afterEach(() => vi.unstubAllGlobals());

const words = (text: string) => async () => ({ default: { "cabinet.title": text } });

describe("the islands' runtime loads the words its page hands it", () => {
  test("the page's words load in the language chosen so far, and another language through the same loaders", async () => {
    expect(translate("cabinet.title")).toBe("cabinet.title");
    $language.set("ru");
    await provideWords({
      ru: words("Кабинет"),
      en: words("Cabinet"),
      zh: words("账户"),
      kk: words("Кабинет kk"),
    });
    expect(translate("cabinet.title")).toBe("Кабинет");
    expect(document.documentElement.lang).toBe("ru");
    await changeLanguage("zh");
    expect(translate("cabinet.title")).toBe("账户");
    expect(document.documentElement.lang).toBe("zh");
  });

  test("words that arrive after another language was chosen are not shown", async () => {
    let finish: (value: { default: Record<string, string> }) => void = () => undefined;
    const slow = () => new Promise<{ default: Record<string, string> }>((resolve) => (finish = resolve));
    const loading = provideWords({ en: slow, ru: words("Кабинет"), zh: words("账户"), kk: words("kk") });
    await changeLanguage("ru");
    finish({ default: { "cabinet.title": "Cabinet" } });
    await loading;
    expect(translate("cabinet.title")).toBe("Кабинет");
  });
});
