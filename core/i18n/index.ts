import type { Language } from "../languages";
import en from "./en.json";
import { interpolate } from "./interpolate";
import kk from "./kk.json";
import { withPluralForms } from "./plural";
import ru from "./ru.json";
import zh from "./zh.json";

export { interpolate, withPluralForms };

export type TranslationKey = keyof typeof en;
export type Translations = Record<TranslationKey, string>;

/** Every language's texts; the `en` file defines the key set (a test checks the others). */
export const resources: Record<Language, Translations> = { en, ru, zh, kk };

/** Translation without the islands' runtime: prerendered pages (the landing ships none) and the server's answers. */
export function translator(language: Language) {
  const texts = resources[language];
  return (key: TranslationKey, values?: Record<string, string | number>) =>
    interpolate(withPluralForms(texts[key] ?? resources.en[key], values, language), values);
}
