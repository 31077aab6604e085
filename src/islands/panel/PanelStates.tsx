import type { ReactNode } from "react";
import type { TranslationKey } from "../../lib/i18n/runtime";
import { useTranslation } from "../../lib/i18n/use-translation";
import type { Refusal } from "../../stores/panel-change";
import type { Failure } from "../../stores/panel-query";
import { currentCustomer } from "../../stores/panel-session";

export function Loading() {
  const { t } = useTranslation();
  return (
    <p className="muted" role="status">
      {t("panel.loading")}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="panel-empty muted">{children}</p>;
}

/** A failed call: what went wrong in the operator's words and a way to ask again. */
export function Failed({ failure, onRetry }: { failure: Failure; onRetry: () => void }) {
  const { t } = useTranslation();
  const isForbidden = failure.code === "admin_only";
  const message = isForbidden
    ? t("panel.forbidden")
    : failure.status === undefined
      ? t("panel.connectionFailed")
      : t("panel.requestFailed");
  return (
    <div className="panel-failed" role="alert">
      <p>{message}</p>
      {!isForbidden && (
        <button type="button" className="button button--ghost" onClick={onRetry}>
          {t("panel.retry")}
        </button>
      )}
    </div>
  );
}

/** A refused change: the screen's reason, with the server's own message under it when it sent one. */
export function RefusalNote({ refusal, reason }: { refusal: Refusal; reason: TranslationKey }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="form__error panel-staff__refusal">
      <p>{t(reason)}</p>
      {refusal.detail && (
        <p className="panel-staff__detail">
          {t("panel.staffServerSays")} {refusal.detail}
        </p>
      )}
    </div>
  );
}

/** The customer is not known: no id, a malformed one, or none such; the way back is the search. */
export function NoCustomer({ reason }: { reason: "missing" | "invalid" | "unknown" }) {
  const { t } = useTranslation();
  const key =
    reason === "missing"
      ? "panel.customerMissing"
      : reason === "invalid"
        ? "panel.customerInvalid"
        : "panel.customerUnknown";
  return (
    <div className="panel-failed" role="alert">
      <p>{t(key)}</p>
      <a className="button button--ghost" href="/panel-search">
        {t("panel.toSearch")}
      </a>
    </div>
  );
}

/** Renders its children with the customer's id, or the way back to the search. */
export function WithCustomer({ children }: { children: (id: number) => ReactNode }) {
  const customer = currentCustomer();
  if ("problem" in customer) return <NoCustomer reason={customer.problem} />;
  return <>{children(customer.id)}</>;
}

/**
 * A wide table scrolls inside this region, never the page; it is focusable so the
 * keyboard can reach and scroll it, and named for screen readers.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to scroll by keyboard.
    <section className="panel-scroll" aria-label={t("panel.tableOf", { name: label })} tabIndex={0}>
      {children}
    </section>
  );
}

/** Why a change did not happen, as one sentence: the server's words, or the screen's when it did not answer. */
export function ChangeError({ text }: { text: string }) {
  return (
    <p role="alert" className="form__error panel-staff__refusal">
      {text}
    </p>
  );
}
