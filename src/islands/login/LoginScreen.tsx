import { useEffect, useState } from "react";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { PrepaidBindingSlot } from "../../components/react/PrepaidBindingSlot";
import { SignInButtons } from "../../components/react/SignInButtons";
import { SiteFooter } from "../../components/react/SiteFooter";
import { Spinner } from "../../components/react/Spinner";
import { api } from "../../lib/api-client";
import { rememberOfferLinkVisit } from "../../lib/consent-skip";
import { useTranslation } from "../../lib/i18n/use-translation";
import { normalizeLoginQuery, safeNextPath } from "../../lib/login-query";
import { $email, $period, $promo, $rawPeriod, $rawTariff, $tariff, $uid } from "../../stores/customer";
import { rememberReturnPath } from "../../stores/sign-in-flow";

type Props = { variant: "login" | "instantLogin" };

/** Whether this browser already holds a customer session; any failure counts as no. */
async function hasSession(): Promise<boolean> {
  if (!$email.get()) return false;
  try {
    const { data } = await api.profile.post({ email: $email.get(), uid: $uid.get() });
    return Boolean(data);
  } catch {
    return false;
  }
}

/**
 * /login reads token, i and j, and `next` (where to return after sign-in); a visitor
 * already signed in goes there at once. /instantLogin binds a paid subscription to an account.
 */
function LoginScreenContent({ variant }: Props) {
  const { t } = useTranslation();
  const [next] = useState(() => safeNextPath(new URLSearchParams(location.search).get("next")));
  const [isChecking, setIsChecking] = useState(variant === "login" && Boolean($email.get()));

  useEffect(() => {
    // A Yandex sign-in comes back through /yauth: it reads where to go from here.
    rememberReturnPath(variant === "login" ? next : null);
    if (variant !== "login") return;
    const query = normalizeLoginQuery(location.search);
    if (query.token) $promo.set(query.token);
    if (query.rawPeriod !== null) $rawPeriod.set(query.rawPeriod);
    if (query.rawTariff !== null) $rawTariff.set(query.rawTariff);
    rememberOfferLinkVisit(query.rawPeriod !== null && query.rawTariff !== null);
    $period.set(String(query.period));
    // The stored tariff is also the plan the cabinet preselects (a price card's `j`).
    $tariff.set(String(query.tariff));
    void hasSession().then((isSignedIn) => {
      if (isSignedIn) location.assign(next);
      else setIsChecking(false);
    });
  }, [variant, next]);

  return (
    <>
      <main id="main" className="screen screen--center">
        <a className="brand" href="/">
          Kannt
        </a>
        {isChecking ? (
          <Spinner label={t("auth.checking")} />
        ) : (
          <section className="card login" aria-labelledby="login-title">
            <h1 id="login-title">{t(variant === "login" ? "auth.title" : "auth.instantTitle")}</h1>
            <p>{t(variant === "login" ? "auth.text" : "auth.instantText")}</p>
            <p className="login__via">{t("login.title")}</p>
            <SignInButtons target={variant === "login" ? next : "/profile"} />
          </section>
        )}
        <PrepaidBindingSlot />
      </main>
      <SiteFooter />
    </>
  );
}

export function LoginScreen(props: Props) {
  return (
    <I18nBoundary titleKey={props.variant === "login" ? "pageTitle.login" : "pageTitle.instantLogin"}>
      <LoginScreenContent {...props} />
    </I18nBoundary>
  );
}
