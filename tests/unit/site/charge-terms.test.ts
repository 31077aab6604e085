import { describe, expect, test } from "vitest";
import { translator } from "../../../core/i18n";
import {
  addMonths,
  chargeTerms,
  instantPayTerms,
  resolveTrialDays,
  shopTerms,
} from "../../../src/lib/charge-terms";
import { describeTerms, formatDays } from "../../../src/lib/charge-terms-text";
import { kazakhDate } from "../../../src/lib/format";

// 10:00 UTC: the same calendar day from UTC−10 to UTC+13, wherever the tests run.
const at = (day: string) => Date.parse(`${day}T10:00:00.000Z`);
const dayOf = (iso: string) => iso.slice(0, 10);

const rubShop = { firstPayment: 1, monthlyPayment: 150, periodMonths: 1, currency: "RUB" as const };

describe("the first full charge with a trial: payment day + trial days", () => {
  test("31 January + 30 days is 2 March in a common year", () => {
    const terms = instantPayTerms({ now: at("2026-01-31"), trialDays: 30, tariff: 1, currency: "RUB" });
    expect(terms.hasTrial).toBe(true);
    expect(dayOf(terms.firstCharge.date)).toBe("2026-03-02");
    expect(terms.nextCharge).toEqual(terms.firstCharge);
  });

  test("31 January + 30 days is 1 March in a leap year, and 30 January + 30 days is 29 February", () => {
    expect(
      dayOf(
        instantPayTerms({ now: at("2028-01-31"), trialDays: 30, tariff: 1, currency: "RUB" }).firstCharge
          .date,
      ),
    ).toBe("2028-03-01");
    expect(
      dayOf(
        instantPayTerms({ now: at("2024-01-30"), trialDays: 30, tariff: 1, currency: "RUB" }).firstCharge
          .date,
      ),
    ).toBe("2024-02-29");
  });

  test("the trial crosses the year end, and a 1-day trial charges the next day at the same time", () => {
    expect(
      dayOf(
        instantPayTerms({ now: at("2026-12-15"), trialDays: 30, tariff: 1, currency: "RUB" }).firstCharge
          .date,
      ),
    ).toBe("2027-01-14");
    const oneDay = instantPayTerms({ now: at("2026-02-28"), trialDays: 1, tariff: 1, currency: "RUB" });
    expect(oneDay.firstCharge.date).toBe("2026-03-01T10:00:00.000Z");
  });

  test.each([
    [1, "RUB", 1, 150],
    [6, "RUB", 1, 600],
    [12, "RUB", 1, 1080],
    [1, "KZT", 10, 900],
    [6, "KZT", 10, 3500],
    [12, "KZT", 10, 6400],
  ] as const)("tariff %i in %s: %i now, then the tariff's list price %i", (tariff, currency, now, full) => {
    const terms = instantPayTerms({ now: at("2026-11-21"), trialDays: 30, tariff, currency });
    expect(terms).toMatchObject({ payNow: now, periodMonths: tariff, currency, trialDays: 30 });
    expect(terms.firstCharge.amount).toBe(full);
    expect(dayOf(terms.firstCharge.date)).toBe("2026-12-21");
  });
});

describe("without a trial: the full price now, the next charge one period later", () => {
  const noTrial = (day: string, periodMonths: number, periodPrice = 150) =>
    chargeTerms({
      now: at(day),
      trialDays: 30,
      periodMonths,
      currency: "RUB",
      firstPayment: 1,
      periodPrice,
      hasTrial: false,
    });

  test("31 January + 1 month is 28 February, or 29 February in a leap year", () => {
    const common = noTrial("2026-01-31", 1);
    expect(common.payNow).toBe(150);
    expect(dayOf(common.firstCharge.date)).toBe("2026-01-31");
    expect(dayOf(common.nextCharge.date)).toBe("2026-02-28");
    expect(dayOf(noTrial("2028-01-31", 1).nextCharge.date)).toBe("2028-02-29");
  });

  test("6 and 12 months clamp to the month's end too", () => {
    expect(dayOf(noTrial("2027-08-31", 6, 600).nextCharge.date)).toBe("2028-02-29");
    expect(dayOf(noTrial("2028-02-29", 12, 1080).nextCharge.date)).toBe("2029-02-28");
    expect(noTrial("2028-02-29", 12, 1080).nextCharge.amount).toBe(1080);
  });

  test("addMonths keeps the day when the month has it", () => {
    expect(new Date(addMonths(at("2026-03-15"), 1)).toISOString()).toBe("2026-04-15T10:00:00.000Z");
  });
});

describe("the cabinet's terms from the shop data", () => {
  const now = at("2026-11-21");

  test("today's shop (no trial fields): a trial of the stored period, the discounted price after it", () => {
    const terms = shopTerms({ ...rubShop, monthlyPayment: 113 }, { now, storedPeriod: "30" });
    expect(terms).toMatchObject({ hasTrial: true, trialDays: 30, payNow: 1 });
    expect(terms.firstCharge).toEqual({ date: "2026-12-21T10:00:00.000Z", amount: 113 });
  });

  test("the server's trial fields win when they count the same trial days", () => {
    const firstCharge = { date: "2026-12-21T09:30:00.000Z", amount: 140 };
    const terms = shopTerms(
      { ...rubShop, trial: true, trialDays: 30, firstCharge },
      { now, storedPeriod: "30" },
    );
    expect(terms.firstCharge).toEqual(firstCharge);
  });

  test("a stored period other than the server's: the date is counted for the days the order carries", () => {
    const firstCharge = { date: "2026-12-21T12:00:00.000Z", amount: 150 };
    const terms = shopTerms(
      { ...rubShop, trial: true, trialDays: 30, firstCharge },
      { now, storedPeriod: "7" },
    );
    expect(terms.trialDays).toBe(7);
    expect(dayOf(terms.firstCharge.date)).toBe("2026-11-28");
    expect(resolveTrialDays("", 30)).toBe(30);
    expect(resolveTrialDays("45", 30)).toBe(30);
    expect(resolveTrialDays(null)).toBe(1);
  });

  test("no trial from the server: the full amount now, its reason, the next charge a period later", () => {
    const terms = shopTerms(
      {
        ...rubShop,
        trial: false,
        trialDays: 30,
        noTrialReason: "You already had a trial.",
        firstCharge: { date: "2026-11-21T12:00:00.000Z", amount: 150 },
      },
      { now, storedPeriod: "30" },
    );
    expect(terms).toMatchObject({ hasTrial: false, payNow: 150, noTrialReason: "You already had a trial." });
    expect(dayOf(terms.nextCharge.date)).toBe("2026-12-21");
  });

  test("malformed server fields are ignored rather than shown", () => {
    const terms = shopTerms(
      { ...rubShop, trial: "no", trialDays: 30, firstCharge: { date: "soon", amount: 150 } },
      { now, storedPeriod: "30" },
    );
    expect(terms.hasTrial).toBe(true);
    expect(dayOf(terms.firstCharge.date)).toBe("2026-12-21");
  });

  test("an order that answered no trial overrides the shop: its amount now, its reason", () => {
    const terms = shopTerms(rubShop, {
      now,
      storedPeriod: "30",
      order: { hasTrial: false, amount: 150, reason: "This card already had a trial." },
    });
    expect(terms).toMatchObject({
      hasTrial: false,
      payNow: 150,
      noTrialReason: "This card already had a trial.",
    });
  });
});

describe("the sentences in every language", () => {
  const trial = instantPayTerms({ now: at("2026-11-21"), trialDays: 30, tariff: 1, currency: "RUB" });

  test("en names the trial length, the exact date and the amounts", () => {
    const text = describeTerms(trial, translator("en"), "en");
    expect(text.summary).toBe(
      "1\u00a0₽ now for 30 days of trial. On December\u00a021,\u00a02026 we charge 150\u00a0₽, then 150\u00a0₽ per month until you cancel.",
    );
    expect(text.consent).toContain("December\u00a021,\u00a02026");
    expect(text.payLabel).toBe("Pay 1\u00a0₽");
  });

  test("ru, zh and kk use their own plural, date and currency forms", () => {
    expect(describeTerms(trial, translator("ru"), "ru").summary).toContain("30 дней");
    expect(describeTerms(trial, translator("ru"), "ru").summary).toContain(
      "21\u00a0декабря\u00a02026\u00a0г.",
    );
    expect(describeTerms(trial, translator("zh"), "zh").summary).toContain("2026年12月21日");
    const tenge = instantPayTerms({ now: at("2026-11-21"), trialDays: 5, tariff: 6, currency: "KZT" });
    const kk = describeTerms(tenge, translator("kk"), "kk");
    expect(kk.summary).toContain("5 күн");
    expect(kk.summary).toContain("3\u202f500\u00a0₸");
    expect(kk.payLabel).toContain("10\u00a0₸");
  });

  test("without a trial the text says so and why, and the pay button names the full amount", () => {
    const terms = chargeTerms({
      now: at("2026-01-31"),
      trialDays: 30,
      periodMonths: 1,
      currency: "RUB",
      firstPayment: 1,
      periodPrice: 150,
      hasTrial: false,
    });
    const text = describeTerms(terms, translator("en"), "en");
    expect(text.noTrialReason).toMatch(/once per customer and once per card/);
    expect(text.summary).toContain("February\u00a028,\u00a02026");
    expect(text.payLabel).toBe("Pay 150\u00a0₽");
  });
});

describe("Kazakh without the browser's help (Chromium has no Kazakh date or unit names)", () => {
  test("the table writes every month as full ICU does", () => {
    const icu = new Intl.DateTimeFormat("kk", { day: "numeric", month: "long", year: "numeric" });
    for (let month = 0; month < 12; month++) {
      const date = new Date(2026, month, 21, 12);
      expect(kazakhDate(date)).toBe(icu.format(date));
    }
  });

  test("days read as 'күн' in Kazakh whatever the count", () => {
    expect(formatDays(1, translator("kk"))).toBe("1 күн");
    expect(formatDays(30, translator("kk"))).toBe("30 күн");
  });

  test("days are the catalogue's words, in each language's plural forms", () => {
    const days = (language: "en" | "ru" | "zh", count: number) => formatDays(count, translator(language));
    expect([1, 2, 30].map((count) => days("en", count))).toEqual(["1 day", "2 days", "30 days"]);
    expect([1, 3, 5, 21].map((count) => days("ru", count))).toEqual(["1 день", "3 дня", "5 дней", "21 день"]);
    expect(days("zh", 30)).toBe("30天");
  });

  test("the islands' runtime picks the same plural forms as the server's translator", async () => {
    const { $language, $texts, translate } = await import("../../../src/lib/i18n/runtime");
    $language.set("ru");
    $texts.set((await import("../../../core/i18n/ru.json")).default);
    expect([1, 3, 5].map((count) => formatDays(count, translate))).toEqual(["1 день", "3 дня", "5 дней"]);
  });
});
