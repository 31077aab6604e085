import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { SiteFooter } from "../../components/react/SiteFooter";
import { Spinner } from "../../components/react/Spinner";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $cancelFailed,
  $cancelScreen,
  confirmCancel,
  openCancelLink,
  openCancelScreen,
  takeCancelToken,
} from "../../stores/cancel-link";
import { CancelByLink } from "./CancelByLink";
import { CancelQuestion } from "./CancelQuestion";

/** /cancel: a farewell, the question, and a hold-to-confirm; only an active subscription gets here. */
function CancelScreenContent() {
  const { t } = useTranslation();
  const state = useStore($cancelScreen);
  const cancelFailure = useStore($cancelFailed);

  useEffect(() => {
    void openCancelScreen();
  }, []);

  if (state.step === "loading") {
    return (
      <main id="main" className="screen screen--center">
        <Spinner label={t("common.loading")} />
      </main>
    );
  }
  return (
    <>
      <main id="main" className="screen screen--center">
        {state.step === "failed" ? (
          <section className="card cancel" aria-labelledby="cancel-title">
            <h1 id="cancel-title">{t("cancel.loadFailedTitle")}</h1>
            <p role="alert">
              {t(state.cause === "server" ? "cancel.loadFailedServer" : "cancel.loadFailed")}
            </p>
            <button type="button" className="button button--primary" onClick={() => void openCancelScreen()}>
              {t("cancel.linkRetry")}
            </button>
            <a className="button button--ghost" href="/profile">
              {t("cancel.linkCabinet")}
            </a>
          </section>
        ) : (
          <CancelQuestion failure={cancelFailure} onConfirm={confirmCancel} keepHref="/profile" />
        )}
      </main>
      <SiteFooter />
    </>
  );
}

/** The tab's title in the interface language (the page's static title is English until then). */
function PageTitle() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = t("cancel.pageTitle");
  }, [t]);
  return null;
}

/** With `?token=` (a renewal notice's cancel link) the screen works from the token, not the cabinet. */
export function CancelScreen() {
  const [token] = useState(takeCancelToken);
  useEffect(() => {
    // Started beside the texts' loading, not after it.
    if (token !== undefined) void openCancelLink();
  }, [token]);
  return (
    <I18nBoundary>
      <PageTitle />
      {token === undefined ? <CancelScreenContent /> : <CancelByLink />}
    </I18nBoundary>
  );
}
