import { afterEach, describe, expect, test, vi } from "vitest";
import * as dateTime from "../../../core/date-time";

// 21:30 UTC on 22 November 2026: still the 23rd's early hours in Almaty (UTC+5), 00:30 in Moscow.
const lateEvening = Date.UTC(2026, 10, 22, 21, 30);
const almaty = { timeZone: "Asia/Almaty" };
const moscow = { timeZone: "Europe/Moscow" };

describe("with full ICU data (Bun)", () => {
  test("Kazakh dates and times read as Kazakh writes them", () => {
    expect(dateTime.hasMonthNames("kk")).toBe(true);
    expect(dateTime.formatDate(lateEvening, "kk", almaty)).toBe("2026 ж. 23 қараша");
    expect(dateTime.formatDayMonth(lateEvening, "kk", almaty)).toBe("23 қараша");
    expect(dateTime.formatTime(lateEvening, "kk", almaty)).toBe("02:30");
    expect(dateTime.formatDateTime(lateEvening, "kk", almaty)).toBe("2026 ж. 23 қараша, 02:30");
    // The same text full ICU writes for Kazakh's long date with a short time.
    expect(
      new Intl.DateTimeFormat("kk", {
        dateStyle: "long",
        timeStyle: "short",
        hourCycle: "h23",
        ...almaty,
      }).format(lateEvening),
    ).toBe("2026 ж. 23 қараша, 02:30");
  });

  test("the other languages go through Intl on the clock they are given", () => {
    expect(dateTime.formatDate(lateEvening, "ru", moscow)).toBe("23 ноября 2026 г.");
    expect(dateTime.formatDate(lateEvening, "en-GB", { timeZone: "UTC" })).toBe("22 November 2026");
    expect(dateTime.formatDate(lateEvening, "zh", moscow)).toBe("2026年11月23日");
    expect(dateTime.formatTime(lateEvening, "en", moscow)).toBe("00:30");
    expect(dateTime.formatDateTime(lateEvening, "en-GB", moscow)).toBe("23 November 2026, 00:30");
    expect(dateTime.formatDateTime(lateEvening, "ru", moscow)).toBe("23 ноября 2026 г., 00:30");
    expect(dateTime.formatDateTime(lateEvening, "zh", moscow)).toBe("2026年11月23日 00:30");
  });

  test("the Kazakh table writes every month of the year exactly as ICU does", () => {
    const icu = new Intl.DateTimeFormat("kk", { day: "numeric", month: "long", year: "numeric", ...almaty });
    for (let month = 0; month < 12; month++) {
      const time = Date.UTC(2027, month, 1, 20, 0);
      expect(dateTime.kazakhDate(time, almaty)).toBe(icu.format(time));
    }
  });
});

/**
 * Chromium's Intl for "kk": every field right but the month, which is "M11" where a name was
 * asked for. Stands in for the browser so the fallback runs here too (the browser test checks
 * the real thing).
 */
function chromiumLikeDateTimeFormat(Original: typeof Intl.DateTimeFormat) {
  return class extends Original {
    private readonly isKazakh: boolean;
    private readonly monthNumber: Intl.DateTimeFormat;
    constructor(locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
      super(locales, options);
      this.isKazakh = (Array.isArray(locales) ? locales[0] : locales) === "kk";
      this.monthNumber = new Original("en-US", { month: "numeric", timeZone: options?.timeZone });
    }
    override formatToParts(date?: Date | number) {
      const parts = super.formatToParts(date);
      if (!this.isKazakh) return parts;
      return parts.map((part) =>
        part.type === "month" ? { ...part, value: `M${this.monthNumber.format(date)}` } : part,
      );
    }
    override format(date?: Date | number) {
      return this.isKazakh
        ? this.formatToParts(date)
            .map((part) => part.value)
            .join("")
        : super.format(date);
    }
  };
}

describe("where the runtime has no Kazakh month names (as in Chromium)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  async function withChromiumIntl() {
    vi.stubGlobal("Intl", { ...Intl, DateTimeFormat: chromiumLikeDateTimeFormat(Intl.DateTimeFormat) });
    vi.resetModules();
    return await import("../../../core/date-time");
  }

  test("detects the missing names and writes the month from the table, never 'M11'", async () => {
    const helpers = await withChromiumIntl();
    expect(new Intl.DateTimeFormat("kk", { month: "long" }).format(lateEvening)).toMatch(/^M\d+$/);
    expect(helpers.hasMonthNames("kk")).toBe(false);
    expect(helpers.formatDate(lateEvening, "kk", almaty)).toBe("2026 ж. 23 қараша");
    expect(helpers.formatDayMonth(lateEvening, "kk", almaty)).toBe("23 қараша");
    expect(helpers.formatDateTime(lateEvening, "kk", almaty)).toBe("2026 ж. 23 қараша, 02:30");
    expect(helpers.formatDateTime(Date.UTC(2027, 0, 5, 9, 5), "kk", almaty)).toBe("2027 ж. 5 қаңтар, 14:05");
  });

  test("a month of a chart reads as full ICU writes it, from the table where Intl cannot", async () => {
    const utc = { timeZone: "UTC" };
    expect(dateTime.formatMonthYear(lateEvening, "kk", utc)).toBe("2026 ж. қараша");
    expect(dateTime.formatMonthYear(lateEvening, "ru", utc)).toBe("ноябрь 2026 г.");
    expect(dateTime.formatMonthYear(lateEvening, "zh", utc)).toBe("2026年11月");
    expect(dateTime.formatMonthYear(lateEvening, "kk", almaty)).toBe("2026 ж. қараша");
    const helpers = await withChromiumIntl();
    expect(helpers.formatMonthYear(lateEvening, "kk", utc)).toBe("2026 ж. қараша");
    expect(helpers.formatMonthYear(Date.UTC(2026, 11, 31, 20, 0), "kk", almaty)).toBe("2027 ж. қаңтар");
  });

  test("the table's day follows the clock it is given", async () => {
    const helpers = await withChromiumIntl();
    expect(helpers.formatDate(lateEvening, "kk", { timeZone: "UTC" })).toBe("2026 ж. 22 қараша");
    expect(helpers.formatDate(Date.UTC(2026, 11, 31, 20, 0), "kk", almaty)).toBe("2027 ж. 1 қаңтар");
  });

  test("other languages are not touched", async () => {
    const helpers = await withChromiumIntl();
    expect(helpers.hasMonthNames("ru")).toBe(true);
    expect(helpers.formatDate(lateEvening, "ru", moscow)).toBe("23 ноября 2026 г.");
  });
});

describe("a date before 'until'", () => {
  test("Kazakh puts every month in the dative that 'дейін' asks for", () => {
    const dative = [
      "қаңтарға",
      "ақпанға",
      "наурызға",
      "сәуірге",
      "мамырға",
      "маусымға",
      "шілдеге",
      "тамызға",
      "қыркүйекке",
      "қазанға",
      "қарашаға",
      "желтоқсанға",
    ];
    for (let month = 0; month < 12; month++) {
      const time = Date.UTC(2026, month, 12, 9, 0);
      expect(dateTime.formatDateUntil(time, "kk", almaty)).toBe(`2026 ж. 12 ${dative[month]}`);
    }
    // The day and year follow the clock given, as every other date does.
    expect(dateTime.formatDateUntil(lateEvening, "kk", almaty)).toBe("2026 ж. 23 қарашаға");
  });

  test("Kazakh puts a date something happened on in the locative, and one before 'бастап' in the ablative", () => {
    const locative = ["қаңтарда", "ақпанда", "наурызда", "сәуірде", "мамырда", "маусымда"];
    const locativeLate = ["шілдеде", "тамызда", "қыркүйекте", "қазанда", "қарашада", "желтоқсанда"];
    const ablative = ["қаңтардан", "ақпаннан", "наурыздан", "сәуірден", "мамырдан", "маусымнан"];
    const ablativeLate = ["шілдеден", "тамыздан", "қыркүйектен", "қазаннан", "қарашадан", "желтоқсаннан"];
    const on = [...locative, ...locativeLate];
    const since = [...ablative, ...ablativeLate];
    for (let month = 0; month < 12; month++) {
      const time = Date.UTC(2026, month, 12, 9, 0);
      expect(dateTime.formatDateAs("on", time, "kk", almaty)).toBe(`2026 ж. 12 ${on[month]}`);
      expect(dateTime.formatDateAs("since", time, "kk", almaty)).toBe(`2026 ж. 12 ${since[month]}`);
    }
    expect(dateTime.formatDateAs("on", lateEvening, "kk", almaty)).toBe("2026 ж. 23 қарашада");
    expect(dateTime.formatDateAs("since", lateEvening, "ru", moscow)).toBe("23 ноября 2026 г.");
    expect(dateTime.formatDateAs("on", lateEvening, "en-GB", moscow)).toBe("23 November 2026");
  });

  test("the other languages write the date as everywhere else (Russian's 'до' takes Intl's genitive)", () => {
    expect(dateTime.formatDateUntil(lateEvening, "ru", moscow)).toBe("23 ноября 2026 г.");
    expect(dateTime.formatDateUntil(lateEvening, "en-GB", moscow)).toBe("23 November 2026");
    expect(dateTime.formatDateUntil(lateEvening, "zh", moscow)).toBe("2026年11月23日");
  });
});

describe("where the runtime has no Kazakh at all and writes the device's language instead", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  /** A browser without Kazakh data on a Russian system: Intl settles on "ru" for "kk". */
  function russianFallbackDateTimeFormat(Original: typeof Intl.DateTimeFormat) {
    return class extends Original {
      constructor(locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
        const asked = Array.isArray(locales) ? locales[0] : locales;
        super(asked === "kk" ? "ru" : locales, options);
      }
    };
  }

  test("Kazakh dates come from the table, never as Russian's '6 декабря'", async () => {
    vi.stubGlobal("Intl", { ...Intl, DateTimeFormat: russianFallbackDateTimeFormat(Intl.DateTimeFormat) });
    vi.resetModules();
    const helpers = await import("../../../core/date-time");
    const sixthOfDecember = Date.UTC(2026, 11, 6, 9, 0);
    expect(new Intl.DateTimeFormat("kk", { day: "numeric", month: "long" }).format(sixthOfDecember)).toBe(
      "6 декабря",
    );
    expect(helpers.hasMonthNames("kk")).toBe(false);
    expect(helpers.formatDate(sixthOfDecember, "kk", almaty)).toBe("2026 ж. 6 желтоқсан");
    expect(helpers.formatDayMonth(sixthOfDecember, "kk", almaty)).toBe("6 желтоқсан");
    expect(helpers.formatDateTime(sixthOfDecember, "kk", almaty)).toBe("2026 ж. 6 желтоқсан, 14:00");
    expect(helpers.formatMonthYear(sixthOfDecember, "kk", almaty)).toBe("2026 ж. желтоқсан");
    expect(helpers.formatDate(sixthOfDecember, "ru", moscow)).toBe("6 декабря 2026 г.");
  });
});

describe("a stored moment on the wire", () => {
  test("milliseconds, or PostgreSQL's BIGINT text of them, become ISO 8601; no moment stays null", () => {
    const moment = Date.UTC(2026, 10, 22, 14, 5);
    expect(dateTime.isoTime(moment)).toBe("2026-11-22T14:05:00.000Z");
    expect(dateTime.isoTime(String(moment))).toBe("2026-11-22T14:05:00.000Z");
    expect(dateTime.isoTime(null)).toBeNull();
    expect(dateTime.isoTime(undefined)).toBeNull();
  });
});
