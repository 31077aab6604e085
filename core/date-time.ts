/**
 * Dates and times for people, through Intl, in the interface language. Chromium ships no
 * Kazakh calendar data: it writes "2026 M11 22" where full ICU (Bun, Node) writes
 * "2026 ж. 22 қараша". Where Intl has no month names for Kazakh, these helpers write the
 * same text full ICU would, from the table below; every other language is left to Intl.
 */
export type DateInput = string | number | Date;
/** An IANA zone ("Europe/Moscow"); without one, the device's own. */
export type ZoneOption = { timeZone?: string };

/** CLDR's Kazakh month names; its dates put the month after the day in this form. */
export const kazakhMonths = [
  "қаңтар",
  "ақпан",
  "наурыз",
  "сәуір",
  "мамыр",
  "маусым",
  "шілде",
  "тамыз",
  "қыркүйек",
  "қазан",
  "қараша",
  "желтоқсан",
] as const;

/**
 * The same months in the dative, the case a date takes before "дейін" (until): the ending
 * follows the month's last vowel (back: -ға/-қа, front: -ге/-ке) and its last sound (after
 * a voiceless consonant -қа/-ке, else -ға/-ге). Of the twelve only қыркүйек ends voiceless.
 */
export const kazakhMonthsDative = [
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
] as const;

/**
 * The locative, the case of a date something happened on ("қарашада аяқталды", ended in
 * November): -да/-де, or -та/-те after a voiceless consonant (қыркүйек only).
 */
export const kazakhMonthsLocative = [
  "қаңтарда",
  "ақпанда",
  "наурызда",
  "сәуірде",
  "мамырда",
  "маусымда",
  "шілдеде",
  "тамызда",
  "қыркүйекте",
  "қазанда",
  "қарашада",
  "желтоқсанда",
] as const;

/**
 * The ablative, the case a date takes before "бастап" (since): -дан/-ден after a vowel or a
 * voiced consonant, -нан/-нен after м, н or ң, -тан/-тен after a voiceless one.
 */
export const kazakhMonthsAblative = [
  "қаңтардан",
  "ақпаннан",
  "наурыздан",
  "сәуірден",
  "мамырдан",
  "маусымнан",
  "шілдеден",
  "тамыздан",
  "қыркүйектен",
  "қазаннан",
  "қарашадан",
  "желтоқсаннан",
] as const;

const kazakhMonthsIn = {
  until: kazakhMonthsDative,
  on: kazakhMonthsLocative,
  since: kazakhMonthsAblative,
} as const;

/** Where a date stands in a sentence: before "until", as the day something happened, before "since". */
export type DateRole = keyof typeof kazakhMonthsIn;

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Building a DateTimeFormat costs far more than using one, and lists format many dates. */
function formatter(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language}|${JSON.stringify(options)}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat(language, options);
    formatters.set(key, cached);
  }
  return cached;
}

const monthNames = new Map<string, boolean>();
/**
 * Whether this runtime's Intl knows the language's month names. Incomplete data shows as a
 * month that is a number ("M11", "11") where a name was asked for; no data at all, as Intl
 * quietly writing the device's own language instead ("6 декабря" for Kazakh on a Russian
 * system), so the language it settled on must be the one asked for.
 */
export function hasMonthNames(language: string): boolean {
  let known = monthNames.get(language);
  if (known === undefined) {
    const months = formatter(language, { month: "long", timeZone: "UTC" });
    const month = months.formatToParts(Date.UTC(2026, 10, 22)).find((part) => part.type === "month")?.value;
    const primary = (tag: string) => tag.split("-")[0]?.toLowerCase();
    known =
      month !== undefined &&
      !/\d/.test(month) &&
      primary(months.resolvedOptions().locale) === primary(language);
    monthNames.set(language, known);
  }
  return known;
}

/** Kazakh is written by hand only where Intl cannot: the rest always goes through Intl. */
const needsKazakhTable = (language: string) => language === "kk" && !hasMonthNames("kk");

const toDate = (input: DateInput) => (input instanceof Date ? input : new Date(input));

/** Year, month (0–11) and day of a moment on the given clock, from Intl's numeric parts. */
function calendarDay(date: Date, timeZone: string | undefined) {
  const parts = formatter("en-US", { year: "numeric", month: "numeric", day: "numeric", timeZone })
    .formatToParts(date)
    .reduce<Record<string, number>>((found, part) => {
      if (part.type !== "literal") found[part.type] = Number(part.value);
      return found;
    }, {});
  return { year: parts.year ?? 0, month: (parts.month ?? 1) - 1, day: parts.day ?? 0 };
}

/** "2026 ж. 22 қараша" from the table, whatever Intl knows: CLDR's Kazakh long date. */
export function kazakhDate(input: DateInput, { timeZone }: ZoneOption = {}): string {
  const { year, month, day } = calendarDay(toDate(input), timeZone);
  return `${year} ж. ${day} ${kazakhMonths[month]}`;
}

/** "22 November 2026", "22 ноября 2026 г.", "2026年11月22日", "2026 ж. 22 қараша". */
export function formatDate(input: DateInput, language: string, { timeZone }: ZoneOption = {}): string {
  const date = toDate(input);
  if (needsKazakhTable(language)) return kazakhDate(date, { timeZone });
  return formatter(language, { day: "numeric", month: "long", year: "numeric", timeZone }).format(date);
}

/**
 * A date in the case its place in a sentence asks for, named by the placeholder the texts
 * give it: `{{until}} дейін` the dative ("2026 ж. 22 қарашаға"), `{{on}}` the locative
 * ("2026 ж. 22 қарашада аяқталды"), `{{since}} бастап` the ablative ("2026 ж. 22 қарашадан").
 * The other languages write the date as everywhere else: Russian's "до", "с" and a bare
 * date all take the genitive Intl writes ("22 ноября 2026 г.").
 */
export function formatDateAs(
  role: DateRole,
  input: DateInput,
  language: string,
  { timeZone }: ZoneOption = {},
): string {
  if (language !== "kk") return formatDate(input, language, { timeZone });
  const { year, month, day } = calendarDay(toDate(input), timeZone);
  return `${year} ж. ${day} ${kazakhMonthsIn[role][month]}`;
}

/** A date that stands before "until": Kazakh's dative, "2026 ж. 22 қарашаға" (see formatDateAs). */
export const formatDateUntil = (input: DateInput, language: string, options: ZoneOption = {}): string =>
  formatDateAs("until", input, language, options);

/** "22 November", "22 ноября", "11月22日", "22 қараша": where the year goes without saying. */
export function formatDayMonth(input: DateInput, language: string, { timeZone }: ZoneOption = {}): string {
  const date = toDate(input);
  if (needsKazakhTable(language)) {
    const { month, day } = calendarDay(date, timeZone);
    return `${day} ${kazakhMonths[month]}`;
  }
  return formatter(language, { day: "numeric", month: "long", timeZone }).format(date);
}

/** "November 2026", "ноябрь 2026 г.", "2026年11月", "2026 ж. қараша": a month of a chart or a report. */
export function formatMonthYear(input: DateInput, language: string, { timeZone }: ZoneOption = {}): string {
  const date = toDate(input);
  if (needsKazakhTable(language)) {
    const { year, month } = calendarDay(date, timeZone);
    return `${year} ж. ${kazakhMonths[month]}`;
  }
  return formatter(language, { month: "long", year: "numeric", timeZone }).format(date);
}

/** "14:05" in every language: a 24-hour clock, as all four of them use. */
export function formatTime(input: DateInput, language: string, { timeZone }: ZoneOption = {}): string {
  return formatter(language, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone }).format(
    toDate(input),
  );
}

/**
 * "22 November 2026, 14:05", "2026年11月22日 14:05": a moment, date first. One joiner for
 * lists, receipts and mail sentences alike; Chinese joins without a comma, as Intl does.
 */
export function formatDateTime(input: DateInput, language: string, zone: ZoneOption = {}): string {
  const joiner = language.startsWith("zh") ? " " : ", ";
  return `${formatDate(input, language, zone)}${joiner}${formatTime(input, language, zone)}`;
}

/**
 * A stored moment (milliseconds since 1970) as the ISO 8601 text the API sends. PostgreSQL's
 * BIGINT columns arrive as strings, so a string is read as that number, not parsed as a date.
 * A moment that may be missing (null or undefined) gives null, and the types say so.
 */
export function isoTime(time: number | string): string;
export function isoTime(time: number | string | null | undefined): string | null;
export function isoTime(time: number | string | null | undefined): string | null {
  return time === null || time === undefined ? null : new Date(Number(time)).toISOString();
}
