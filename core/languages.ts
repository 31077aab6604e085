/**
 * The interface languages and the rules for choosing one. Shared by the server's
 * page negotiation, the landing's inline script and i18next in the islands, so all
 * three pick the same language from the same inputs.
 */
export const languages = ["ru", "en", "zh", "kk"] as const;
export type Language = (typeof languages)[number];
export const fallbackLanguage: Language = "en";

/** i18next-browser-languagedetector's default keys, so the landing and islands share them. */
export const languageStorageKey = "i18nextLng";
export const languageCookieName = "i18next";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (languages as readonly string[]).includes(value);
}

/** "zh-CN" → "zh", "KK" → "kk", "de" → undefined. */
export function toLanguage(tag: string | null | undefined): Language | undefined {
  if (!tag) return undefined;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(primary) ? primary : undefined;
}

/** Languages of an Accept-Language header, best first (q-values honoured). */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...parameters] = part.trim().split(";");
      const quality = parameters
        .map((parameter) => parameter.trim())
        .find((parameter) => parameter.startsWith("q="));
      const q = quality ? Number(quality.slice(2)) : 1;
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.tag && entry.tag !== "*" && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/** Reads one cookie from a Cookie header or document.cookie. */
export function readCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(";")) {
    const separator = pair.indexOf("=");
    if (separator < 0) continue;
    if (pair.slice(0, separator).trim() === name) {
      const value = pair.slice(separator + 1).trim();
      // Session tokens and language codes are plain text: decode only what is encoded.
      if (!value.includes("%")) return value;
      try {
        return decodeURIComponent(value);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export type LanguageSources = {
  stored?: string | null;
  cookie?: string | null;
  browser?: readonly string[];
};

/** Local storage first, then the cookie, then the browser's languages, then English. */
export function detectLanguage({ stored, cookie, browser = [] }: LanguageSources): Language {
  for (const candidate of [stored, cookie, ...browser]) {
    const language = toLanguage(candidate);
    if (language) return language;
  }
  return fallbackLanguage;
}

/** The currency a language's texts quote prices in (spec §1). */
export function currencyOf(language: Language): "RUB" | "KZT" {
  return language === "kk" ? "KZT" : "RUB";
}
