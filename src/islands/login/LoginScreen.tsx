import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { PrepaidBindingSlot } from "../../components/react/PrepaidBindingSlot";
import { SignInButtons } from "../../components/react/SignInButtons";
import { SiteFooter } from "../../components/react/SiteFooter";
import { Spinner } from "../../components/react/Spinner";
import { useTranslation } from "../../lib/i18n/use-translation";
import { $loginPage, type LoginVariant, openingLoginPage, openLoginPage } from "../../stores/login-page";

type Props = { variant: LoginVariant };

/**
 * /login reads token, i and j, and `next` (where to return after sign-in); a visitor
 * already signed in goes there at once. /instantLogin binds a paid subscription to an account.
 */
function LoginScreenContent({ variant }: Props) {
  const { t } = useTranslation();
  // Until the page has opened it shows what it opens with, so no button flashes before the check.
  const { isChecking, target } = useStore($loginPage) ?? openingLoginPage(variant);

  useEffect(() => void openLoginPage(variant), [variant]);

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
            <SignInButtons target={target} />
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
