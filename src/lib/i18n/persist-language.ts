import { type Language, languageCookieName, languageStorageKey } from "../../../core/languages";

const oneYearSeconds = 365 * 24 * 60 * 60;

/** Caches the language the way i18next's detector does: local storage and a cookie. */
export function persistLanguage(language: Language): void {
  try {
    localStorage.setItem(languageStorageKey, language);
  } catch {
    // Storage blocked: the cookie below still carries the choice.
  }
  // biome-ignore lint/suspicious/noDocumentCookie: a plain cookie is what the server and i18next read.
  document.cookie = `${languageCookieName}=${language}; path=/; max-age=${oneYearSeconds}; samesite=lax`;
}

export function storedLanguage(): string | null {
  try {
    return localStorage.getItem(languageStorageKey);
  } catch {
    return null;
  }
}
