import { type ReactNode, useEffect, useState } from "react";
import { type Language, languages } from "../../../core/languages";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  hasOperatorSession,
  isSupportOperator,
  leaveForLogin,
  logoutOperator,
} from "../../stores/panel-session";

type T = ReturnType<typeof useTranslation>["t"];
/** The navigation's sections; a customer's pages belong to the users' section. */
export type PanelSection =
  | "search"
  | "dashboard"
  | "promo"
  | "audit"
  | "staff"
  | "nodes"
  | "payments"
  | "security";

const sections: {
  section: PanelSection;
  href: string;
  key:
    | "panel.navSearch"
    | "panel.navDashboard"
    | "panel.navPromos"
    | "panel.navAudit"
    | "panel.navStaff"
    | "panel.navNodes"
    | "panel.navPayments"
    | "panel.navSecurity";
  /** Left out for support staff, whom the server refuses there. */
  isAdminOnly?: boolean;
}[] = [
  { section: "search", href: "/panel-search", key: "panel.navSearch" },
  { section: "dashboard", href: "/panel-dashboard", key: "panel.navDashboard" },
  { section: "promo", href: "/panel-promo", key: "panel.navPromos" },
  { section: "audit", href: "/panel-audit", key: "panel.navAudit" },
  { section: "staff", href: "/panel-staff", key: "panel.navStaff" },
  { section: "nodes", href: "/panel-nodes", key: "panel.navNodes", isAdminOnly: true },
  { section: "payments", href: "/panel-payments", key: "panel.navPayments", isAdminOnly: true },
  // Every operator's own second factor.
  { section: "security", href: "/panel-security", key: "panel.navSecurity" },
];

/** The language choice, on one row in the header (the panel has no site footer). */
function Languages() {
  const { t, language, changeLanguage } = useTranslation();
  return (
    <nav className="panel-languages" aria-label={t("footer.languages")}>
      {languages.map((option: Language) => (
        <button
          key={option}
          type="button"
          lang={option}
          className={`panel-languages__option${language === option ? " panel-languages__option--active" : ""}`}
          aria-pressed={language === option}
          onClick={() => void changeLanguage(option)}
        >
          {option.toUpperCase()}
        </button>
      ))}
    </nav>
  );
}

function Frame({
  title,
  section,
  isSignedIn,
  children,
}: {
  title: string;
  section: PanelSection | undefined;
  isSignedIn: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t("panel.title")}`;
  }, [title, t]);
  return (
    <>
      <header className="panel-header">
        <a className="brand" href={isSignedIn ? "/panel-search" : "/panel-login"}>
          {t("panel.title")}
        </a>
        {isSignedIn && (
          <nav className="panel-nav" aria-label={t("panel.navLabel")}>
            {sections
              .filter((item) => !(item.isAdminOnly && isSupportOperator()))
              .map((item) => (
                <a
                  key={item.section}
                  href={item.href}
                  className={`panel-nav__link${item.section === section ? " panel-nav__link--current" : ""}`}
                  aria-current={item.section === section ? "page" : undefined}
                >
                  {t(item.key)}
                </a>
              ))}
          </nav>
        )}
        <div className="panel-header__end">
          <Languages />
          {isSignedIn && (
            <button type="button" className="button button--ghost" onClick={() => void logoutOperator()}>
              {t("panel.logout")}
            </button>
          )}
        </div>
      </header>
      <main id="main" className="panel-main">
        {isSignedIn && <h1>{title}</h1>}
        {children}
      </main>
      <footer className="panel-footer">
        <p>{t("panel.footer")}</p>
      </footer>
    </>
  );
}

/** The panel header and footer around every panel screen, /panel-login included (spec §2). */
export function PanelLayout({
  title,
  section,
  isSignedIn = true,
  children,
}: {
  title: (t: T) => string;
  section?: PanelSection;
  isSignedIn?: boolean;
  children: ReactNode;
}) {
  return (
    <I18nBoundary>
      <Titled title={title} section={section} isSignedIn={isSignedIn}>
        {children}
      </Titled>
    </I18nBoundary>
  );
}

function Titled({
  title,
  section,
  isSignedIn,
  children,
}: {
  title: (t: T) => string;
  section: PanelSection | undefined;
  isSignedIn: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  // Every signed-in page needs a sign-in, whether or not it calls the server on its own.
  const [isAllowed] = useState(() => !isSignedIn || hasOperatorSession());
  useEffect(() => {
    if (!isAllowed) leaveForLogin();
  }, [isAllowed]);
  return (
    <Frame title={title(t)} section={section} isSignedIn={isSignedIn && isAllowed}>
      {isAllowed && children}
    </Frame>
  );
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
    <nav className="pager" aria-label={t("panel.pagerLabel")}>
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
