import { useStore } from "@nanostores/react";
import type { ReactNode } from "react";
import { $texts } from "../../lib/i18n/runtime";

/** Island roots render inside this: a spinner shows while the language's texts load. */
export function I18nBoundary({ children }: { children: ReactNode }) {
  const texts = useStore($texts);
  if (!texts) {
    return (
      <div className="spinner" role="status" aria-live="polite">
        <span className="spinner__circle" aria-hidden="true" />
      </div>
    );
  }
  return <>{children}</>;
}
