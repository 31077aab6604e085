import { useEffect } from "react";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { PrepaidBindingDialog } from "../../components/react/PrepaidBindingDialog";
import { SignInButtons } from "../../components/react/SignInButtons";
import { SiteFooter } from "../../components/react/SiteFooter";
import { rememberOfferLinkVisit } from "../../lib/consent-skip";
import { useTranslation } from "../../lib/i18n/use-translation";
import { normalizeLoginQuery } from "../../lib/login-query";
import { $period, $promo, $rawPeriod, $rawTariff, $tariff } from "../../stores/customer";

type Props = { variant: "login" | "instantLogin" };

/** /login reads token, i and j; /instantLogin binds a paid subscription to an account. */
function LoginScreenContent({ variant }: Props) {
  const { t } = useTranslation();

  useEffect(() => {
    if (variant !== "login") return;
    const query = normalizeLoginQuery(location.search);
    if (query.token) $promo.set(query.token);
    if (query.rawPeriod !== null) $rawPeriod.set(query.rawPeriod);
    if (query.rawTariff !== null) $rawTariff.set(query.rawTariff);
    rememberOfferLinkVisit(query.rawPeriod !== null && query.rawTariff !== null);
    $period.set(String(query.period));
    $tariff.set(String(query.tariff));
  }, [variant]);

  return (
    <>
      <main id="main" className="screen screen--center">
        <a className="brand" href="/">
          Kannt
        </a>
        <section className="card login" aria-labelledby="login-title">
          <h1 id="login-title">{t(variant === "login" ? "auth.title" : "auth.instantTitle")}</h1>
          <p>{t(variant === "login" ? "auth.text" : "auth.instantText")}</p>
          <p className="login__via">{t("login.title")}</p>
          <SignInButtons />
        </section>
        <PrepaidBindingDialog />
      </main>
      <SiteFooter />
    </>
  );
}

export function LoginScreen(props: Props) {
  return (
    <I18nBoundary>
      <LoginScreenContent {...props} />
    </I18nBoundary>
  );
}
