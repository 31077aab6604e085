import { useStore } from "@nanostores/react";
import { company, copyrightYears, switcherLanguages } from "../../../core/company";
import { track } from "../../lib/analytics";
import { useTranslation } from "../../lib/i18n/use-translation";
import { supportLink } from "../../lib/support-link";
import { $email } from "../../stores/customer";

/** The shared footer of spec §2 for island screens (the prerendered pages use Footer.astro). */
export function SiteFooter() {
  const { t, language, changeLanguage } = useTranslation();
  const email = useStore($email);
  return (
    <footer className="footer">
      <div className="footer__inner">
        <div className="footer__contacts">
          <a
            className="footer__link"
            href={supportLink(email)}
            target="_blank"
            rel="noopener"
            onClick={() => track("go_support")}
          >
            {t("footer.support")}
          </a>
          <a
            className="footer__link footer__mail"
            href={`mailto:${company.supportEmail}`}
            onClick={() => track("go_support")}
          >
            {t("footer.mail")}: {company.supportEmail}
          </a>
        </div>
        <nav className="languages" aria-label={t("footer.languages")}>
          {switcherLanguages.map((option) => (
            <button
              key={option}
              type="button"
              lang={option}
              className={`languages__link${language === option ? " languages__link--active" : ""}`}
              aria-current={language === option ? "true" : undefined}
              onClick={() => void changeLanguage(option)}
            >
              {option.toUpperCase()}
            </button>
          ))}
        </nav>
        <div className="footer__legal">
          <p>{t("footer.company", { legalName: company.legalName, taxNumber: company.taxNumber })}</p>
          <a className="footer__link" href={company.offerPdfPath} target="_blank" rel="noopener">
            {t("footer.offer")}
          </a>
          <p>
            {t("footer.copyright", {
              years: copyrightYears(new Date().getFullYear()),
              productName: company.productName,
            })}
          </p>
        </div>
      </div>
    </footer>
  );
}
