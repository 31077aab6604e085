import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import type { ScreenLanguage } from "./page-states";

// What counts as an untranslated UI word on a ru, zh or kk screen: any word of Latin
// letters that is not a name written in Latin letters in every language, any English
// language-file text of two or more words, and a month printed as a number in Kazakh.

/**
 * Brand, product and proper names, and abbreviations read as such in ru, zh and kk.
 * Kept short on purpose: every entry is a name a translator would leave as it is.
 */
const allowedWords = new Set(
  [
    // The product and the sign-in and payment brands it shows.
    "Kannt",
    "Google",
    "Yandex",
    "ID",
    "Telegram",
    "Visa",
    "Mastercard",
    "Mir",
    "UnionPay",
    "CloudPayments",
    // The second payment provider, as Chinese writes it (Russian and Kazakh write ЮKassa).
    "YooKassa",
    // Platforms and stores the install instructions name.
    "Android",
    "iOS",
    "iPhone",
    "iPad",
    "Windows",
    "macOS",
    "Mac",
    "Linux",
    "App",
    "Store",
    "Play",
    "TV",
    // Client apps the landing and the cabinet name: any of them takes the subscription link.
    "Happ",
    "Streisand",
    "FlClash",
    "Hiddify",
    // Abbreviations used untranslated in these languages.
    "VPN",
    // Protocol names an operator reads as they are on the Nodes screen: TLS and its server
    // name (SNI) and ALPN, gRPC, HTTP's Host header.
    "TLS",
    "SNI",
    "ALPN",
    "gRPC",
    "Host",
    // The brands whose names a REALITY entry's warning says censors watch.
    "Apple",
    "iCloud",
    "Microsoft",
    "PDF",
    "QR",
    "IP",
    "OK",
    // Data sizes: Chinese writes them in Latin letters (the device's traffic, "1.2 GB").
    "kB",
    "MB",
    "GB",
    "TB",
    // The time zone the panel's receipt times are given in (the machine's: UTC here).
    "UTC",
    // Written so in Russian and Kazakh interfaces.
    "e-mail",
    // Currency codes, where a screen writes one.
    "RUB",
    "KZT",
  ].map((word) => word.toLowerCase()),
);

/**
 * Text that is not language: e-mail addresses, web addresses, identifiers that mix letters
 * with digits (user names like e2e.admin, transaction ids), UUIDs.
 */
const notLanguage = [
  /[\w.+-]+@[\w-]+(\.[\w-]+)+/g,
  /\bhttps?:\/\/\S+/g,
  /\b(www\.)?[\w-]+\.(com|ru|kz|org|net|app)(\/\S*)?/gi,
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  /[\w.-]*\d[\w.-]*/g,
];

/** The language switcher names each language by its code. */
const languageCodes = /^(RU|EN|ZH|KK)$/;

/** Latin words of two or more letters that are not on the list above. */
export function untranslatedWords(text: string): string[] {
  if (languageCodes.test(text.trim())) return [];
  let rest = text;
  for (const pattern of notLanguage) rest = rest.replace(pattern, " ");
  const words = rest.match(/(?<![\p{L}\d_])[A-Za-z][A-Za-z'’-]*[A-Za-z](?![\p{L}\d_])/gu) ?? [];
  return words.filter((word) => !allowedWords.has(word.toLowerCase()));
}

/** The English language file's texts of two or more words, which must never appear as they are. */
const englishPhrases = Object.entries(
  JSON.parse(readFileSync("core/i18n/en.json", "utf8")) as Record<string, string>,
)
  .map(([key, value]) => ({ key, value: value.replace(/\{\{[^}]*\}\}/g, "").trim() }))
  .filter(({ value }) => value.split(/\s+/).length >= 2 && untranslatedWords(value).length > 0);

/** `foreign`: inside an element whose `lang` names another language (a language's own name). */
export type Seen = { where: string; text: string; foreign?: boolean };

/** What a person sees or hears on the page: visible text nodes, tab title and read-out attributes. */
export async function textsOf(page: Page): Promise<Seen[]> {
  return page.evaluate(() => {
    const seen: { where: string; text: string; foreign?: boolean }[] = [
      { where: "tab title", text: document.title },
    ];
    const pageLanguage = document.documentElement.lang;
    const isForeign = (element: Element) =>
      (element.closest("[lang]")?.getAttribute("lang") ?? pageLanguage) !== pageLanguage;
    const isShown = (element: Element) =>
      element.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true }) &&
      !element.closest("[aria-hidden='true'], [hidden], template, script, style, noscript");
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim();
      if (!parent || !text || !isShown(parent)) continue;
      // Marked as not to be translated (an e-mail address split where it may wrap).
      if (parent.closest('[translate="no"]')) continue;
      seen.push({ where: `<${parent.tagName.toLowerCase()}>`, text, foreign: isForeign(parent) });
    }
    for (const element of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
      if (!isShown(element) && element.tagName !== "svg") continue;
      for (const attribute of ["aria-label", "title", "placeholder", "alt"]) {
        const value = element.getAttribute(attribute)?.trim();
        if (value)
          seen.push({
            where: `${attribute} of <${element.tagName.toLowerCase()}>`,
            text: value,
            foreign: isForeign(element),
          });
      }
    }
    return seen;
  });
}

/** Russian month names as a date writes them: after a day, or before a year. */
const russianMonths =
  "январ[ья]|феврал[ья]|марта?|апрел[ья]|ма[йя]|июн[ья]|июл[ья]|августа?|сентябр[ья]|октябр[ья]|ноябр[ья]|декабр[ья]";
const russianDate = new RegExp(
  `\\d{1,2}\\s(${russianMonths})(?!\\p{L})|(?<!\\p{L})(${russianMonths})\\s\\d{4}`,
  "iu",
);

/** Each problem on the page as one readable line. */
export function untranslatedProblems(seen: Seen[], language: ScreenLanguage): string[] {
  const found: string[] = [];
  for (const { where, text, foreign } of seen) {
    // A language's own name in its switcher, marked with its lang: "English" on a Russian page.
    if (foreign && text.split(/\s+/).length <= 3) continue;
    const words = untranslatedWords(text);
    if (words.length > 0) found.push(`${where}: ${words.join(", ")} — in "${text.slice(0, 120)}"`);
    for (const { key, value } of englishPhrases)
      if (text.includes(value)) found.push(`${where}: the English text of ${key} — "${value}"`);
    // A date with the month as a number where the month's name belongs: "2026 M11 22".
    if (language === "kk" && /\bM\d{1,2}\b/.test(text))
      found.push(`${where}: a month printed as "M<n>" — "${text}"`);
    // A date in Russian on a Kazakh screen: "1 января", "январь 2027", what Intl writes
    // when it falls back to the device's language. Text marked as Russian (the offer's
    // binding Russian original, lang="ru") is that text, not an untranslated date.
    const russianMonth = language === "kk" && !foreign ? russianDate.exec(text) : null;
    if (russianMonth) found.push(`${where}: a Russian month, "${russianMonth[0]}" — "${text}"`);
  }
  return [...new Set(found)];
}

/**
 * The demo identity provider stands in for Google's and Yandex's own pages, which show in
 * the provider's language, not ours; it exists only in demo mode and is drawn in English
 * (marked lang="en"), so only its accessibility is checked.
 */
export const isExternalStandIn = (page: string) => page === "dev-idp";
