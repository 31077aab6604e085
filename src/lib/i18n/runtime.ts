import { atom } from "nanostores";
import type en from "../../../core/i18n/en.json";
import { interpolate } from "../../../core/i18n/interpolate";
import { withPluralForms } from "../../../core/i18n/plural";
import { detectLanguage, type Language, languageCookieName, readCookie } from "../../../core/languages";
import { persistLanguage, storedLanguage } from "./persist-language";

/**
 * The islands' i18n: the same detection as the landing's script and the server
 * (local storage, cookie, browser; cached in local storage and a cookie), the same
 * JSON files, loaded one language at a time. It stands in for i18next, whose 16 KB
 * the 100 KB page budget of DESIGN §10 cannot carry next to React 19's 66 KB.
 */
export type TranslationKey = keyof typeof en;
type Texts = Record<TranslationKey, string>;
/** One loader per language of the page's words (src/build/screen-words.ts). */
export type WordLoaders = Record<Language, () => Promise<{ default: Partial<Texts> }>>;

export const $language = atom<Language>("en");
export const $texts = atom<Texts | undefined>();

let loaders: Partial<WordLoaders> = {};

/** The page's script hands over its island's words; they load in the language chosen so far. */
export function provideWords(pageLoaders: WordLoaders): Promise<void> {
  loaders = pageLoaders;
  return load($language.get());
}

async function load(language: Language): Promise<void> {
  const loader = loaders[language];
  if (!loader) return;
  // A key the island never names is left out of its words, so none is missing where it is read.
  const texts = (await loader()).default as Texts;
  if ($language.get() !== language) return;
  $texts.set(texts);
  document.documentElement.lang = language;
}

export function changeLanguage(language: Language): Promise<void> {
  persistLanguage(language);
  $language.set(language);
  return load(language);
}

/**
 * Translates with the texts loaded now, `{{count|…}}` in the language's plural forms; before
 * the texts arrive a key reads as itself.
 */
export function translate(key: TranslationKey, values?: Record<string, string | number>): string {
  return interpolate(withPluralForms($texts.get()?.[key] ?? key, values, $language.get()), values);
}

if (typeof window !== "undefined") {
  void changeLanguage(
    detectLanguage({
      stored: storedLanguage(),
      cookie: readCookie(document.cookie, languageCookieName),
      browser: navigator.languages,
    }),
  );
}
