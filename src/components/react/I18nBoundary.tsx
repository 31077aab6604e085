import { useStore } from "@nanostores/react";
import { type ReactNode, useEffect } from "react";
import { $texts, type TranslationKey, translate } from "../../lib/i18n/runtime";

type Props = {
  children: ReactNode;
  /** The page's tab title; the static HTML carries one language, so it is set here once texts load. */
  titleKey?: TranslationKey;
};

/** Island roots render inside this: a spinner shows while the language's texts load. */
export function I18nBoundary({ children, titleKey }: Props) {
  const texts = useStore($texts);
  // New texts arrive with every language change, so the title follows the switcher.
  useEffect(() => {
    if (texts && titleKey) document.title = translate(titleKey);
  }, [texts, titleKey]);
  if (!texts) {
    return (
      <div className="spinner" role="status" aria-live="polite">
        <span className="spinner__circle" aria-hidden="true" />
      </div>
    );
  }
  return <>{children}</>;
}
