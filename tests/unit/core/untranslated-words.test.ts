import { describe, expect, test } from "vitest";
import { untranslatedProblems, untranslatedWords } from "../../helpers/browser/untranslated";

// The browser check's rule for untranslated words, held to what it must and must not flag.
describe("untranslated words", () => {
  test("English words in a Russian sentence are flagged", () => {
    expect(untranslatedWords("Оплата DECLINED: card declined")).toEqual(["DECLINED", "card", "declined"]);
  });

  test("names, abbreviations and the switcher's codes pass", () => {
    expect(untranslatedWords("Войти через Google или Yandex ID")).toEqual([]);
    expect(untranslatedWords("Приложения для iPhone, Windows и Mac, скачайте в App Store")).toEqual([]);
    expect(untranslatedWords("KK")).toEqual([]);
    expect(untranslatedWords("Часть e-mail")).toEqual([]);
    expect(untranslatedWords("本月：下载 1.2 GB，上传 80 MB，0 kB")).toEqual([]);
  });

  test("addresses, links and identifiers with digits are not language", () => {
    expect(untranslatedWords("Почта: support@kannt.app, https://kannt.app/offer")).toEqual([]);
    expect(untranslatedWords("e2e.admin · fixture-12 · 3fa85f64-5717-4562-b3fc-2c963f66afa6")).toEqual([]);
  });

  test("an English text of the language files is named by its key", () => {
    const found = untranslatedProblems([{ where: "<h1>", text: "Page not found" }], "ru");
    expect(found.some((line) => line.includes("notFound.title"))).toBe(true);
  });

  test("a month printed as a number fails in Kazakh only", () => {
    expect(untranslatedProblems([{ where: "<p>", text: "2026 M11 22" }], "kk")).toHaveLength(1);
    expect(untranslatedProblems([{ where: "<p>", text: "2026 ж. 22 қараша" }], "kk")).toEqual([]);
  });

  test("a Russian month in a date fails on a Kazakh screen, in any of its forms", () => {
    for (const text of [
      "Kannt жазылымы ұзартылады: 1 января, 150 ₽",
      "2027 ж.\u00a01\u00a0января",
      "Басталуы: 12 мая 2027 г.",
      "январь 2027",
      "3 Декабря",
    ])
      expect(untranslatedProblems([{ where: "<td>", text }], "kk"), text).toEqual([
        expect.stringContaining("a Russian month"),
      ]);
    // Kazakh dates, and Kazakh words that merely look alike, pass.
    for (const text of ["2027 ж. 1 қаңтар", "2026 ж. 22 мамыр", "Май 5 литр", "маусым 2027"])
      expect(untranslatedProblems([{ where: "<td>", text }], "kk"), text).toEqual([]);
    // A Russian screen writes Russian months.
    expect(untranslatedProblems([{ where: "<td>", text: "1 января 2027 г." }], "ru")).toEqual([]);
    // Text marked lang="ru" on a Kazakh page is the Russian original (the offer), not a date left untranslated.
    expect(
      untranslatedProblems([{ where: "<p>", text: "Редакция от 1 января 2025 года", foreign: true }], "kk"),
    ).toEqual([]);
  });

  test("a language's own name marked with its lang passes", () => {
    expect(untranslatedProblems([{ where: "title of <a>", text: "English", foreign: true }], "ru")).toEqual(
      [],
    );
  });
});
