import { useStore } from "@nanostores/react";
import { $language, $texts, changeLanguage, type TranslationKey, translate } from "./runtime";

/** The islands' hook: re-renders when the language or its texts change. */
export function useTranslation() {
  const language = useStore($language);
  useStore($texts);
  return {
    t: (key: TranslationKey, values?: Record<string, string | number>) => translate(key, values),
    language,
    changeLanguage,
  };
}
