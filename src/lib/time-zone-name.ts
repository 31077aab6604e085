import type { TranslationKey } from "./i18n/runtime";

/**
 * The zones an operator of this service is most likely in, named by the panel's own words:
 * browsers write them unevenly (Chromium's Russian short name for Moscow is "Moscow", and it
 * has no Kazakh zone names at all).
 */
const namedZones: Record<string, TranslationKey> = {
  "Europe/Moscow": "panel.zoneMoscow",
  "W-SU": "panel.zoneMoscow",
  "Asia/Almaty": "panel.zoneAlmaty",
};
const universalZones = new Set([
  "UTC",
  "Etc/UTC",
  "Etc/GMT",
  "GMT",
  "Etc/Universal",
  "Universal",
  "Etc/Zulu",
  "Zulu",
]);

const primary = (tag: string) => tag.split("-")[0]?.toLowerCase();

function intlName(timeZone: string, language: string, at: number): string | undefined {
  const format = new Intl.DateTimeFormat(language, { timeZone, timeZoneName: "longGeneric" });
  // A runtime without the language's data answers in another one; that name is no name here.
  if (primary(format.resolvedOptions().locale) !== primary(language)) return undefined;
  return format.formatToParts(at).find((part) => part.type === "timeZoneName")?.value;
}

/**
 * The zone the panel's times are shown in, named in the reader's language ("московское время",
 * "Moscow time", "莫斯科时间", "Мәскеу уақыты"), never as an IANA id like "Europe/Moscow". Other
 * zones: Intl's name where it has the language, else the offset ("UTC+5"), which every
 * reader understands.
 */
export function timeZoneName(
  timeZone: string,
  language: string,
  translate: (key: TranslationKey) => string,
  at = Date.now(),
): string {
  const key = namedZones[timeZone];
  if (key) return translate(key);
  if (universalZones.has(timeZone)) return "UTC";
  const name = intlName(timeZone, language, at);
  const english = intlName(timeZone, "en", at);
  if (name && !name.startsWith("GMT") && (primary(language) === "en" || name !== english)) return name;
  const offset = new Intl.DateTimeFormat("en", { timeZone, timeZoneName: "shortOffset" })
    .formatToParts(at)
    .find((part) => part.type === "timeZoneName")?.value;
  return (offset ?? "GMT").replace(/^GMT/, "UTC");
}

/** The browser's own zone, which the panel shows its times in. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
