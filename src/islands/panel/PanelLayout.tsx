import type { ReactNode } from "react";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { useTranslation } from "../../lib/i18n/use-translation";
import { logoutOperator } from "../../stores/panel-session";

function Frame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <header className="panel-header">
        <a className="brand" href="/panel-search">
          {t("panel.title")}
        </a>
        <nav className="panel-nav" aria-label={t("panel.title")}>
          <a href="/panel-search">{t("panel.navSearch")}</a>
          <a href="/panel-promo">{t("panel.navPromos")}</a>
          <a href="/panel-audit">{t("panel.navAudit")}</a>
          <button type="button" className="button button--ghost" onClick={() => void logoutOperator()}>
            {t("panel.logout")}
          </button>
        </nav>
      </header>
      <main id="main" className="panel-main">
        <h1>{title}</h1>
        {children}
      </main>
      <footer className="panel-footer">
        <p>{t("panel.footer")}</p>
      </footer>
    </>
  );
}

/** The panel header and footer around every panel screen (spec §2 "Operator panel"). */
export function PanelLayout({
  title,
  children,
}: {
  title: (t: ReturnType<typeof useTranslation>["t"]) => string;
  children: ReactNode;
}) {
  return (
    <I18nBoundary>
      <Titled title={title}>{children}</Titled>
    </I18nBoundary>
  );
}

function Titled({
  title,
  children,
}: {
  title: (t: ReturnType<typeof useTranslation>["t"]) => string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return <Frame title={title(t)}>{children}</Frame>;
}

export function Pager({
  page,
  totalPages,
  onChange,
}: {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={t("panel.pager", { page: page + 1, total: totalPages })}>
      <button
        type="button"
        className="button button--ghost"
        disabled={page === 0}
        onClick={() => onChange(page - 1)}
      >
        {t("panel.previous")}
      </button>
      <span>{t("panel.pager", { page: page + 1, total: totalPages })}</span>
      <button
        type="button"
        className="button button--ghost"
        disabled={page + 1 >= totalPages}
        onClick={() => onChange(page + 1)}
      >
        {t("panel.next")}
      </button>
    </nav>
  );
}
