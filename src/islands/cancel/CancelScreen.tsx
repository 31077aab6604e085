import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { HoldButton } from "../../components/react/HoldButton";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { SiteFooter } from "../../components/react/SiteFooter";
import { Spinner } from "../../components/react/Spinner";
import { useTranslation } from "../../lib/i18n/use-translation";
import { $cabinetState, $profile, cancelSubscription, loadCabinet } from "../../stores/cabinet";
import { openCancelLink, takeCancelToken } from "../../stores/cancel-link";
import { CancelByLink } from "./CancelByLink";

/** /cancel: a farewell, the question, and a hold-to-confirm; only an active subscription gets here. */
function CancelScreenContent() {
  const { t } = useTranslation();
  const state = useStore($cabinetState);
  const profile = useStore($profile);

  useEffect(() => {
    void loadCabinet();
  }, []);

  const isActive = profile?.userInfo.subscriptionStatus === "ACTIVE";
  useEffect(() => {
    if (state === "ready" && !isActive) location.assign("/profile");
  }, [state, isActive]);

  if (state !== "ready" || !isActive) {
    return (
      <main id="main" className="screen screen--center">
        <Spinner label={t("common.loading")} />
      </main>
    );
  }
  return (
    <>
      <main id="main" className="screen screen--center">
        <section className="card cancel" aria-labelledby="cancel-title">
          <p>{t("cancel.farewell")}</p>
          <h1 id="cancel-title">{t("cancel.question")}</h1>
          <HoldButton
            label={t("cancel.confirm")}
            hint={t("cancel.holdHint")}
            variant="danger"
            onConfirm={cancelSubscription}
          />
          <a className="button button--ghost" href="/profile">
            {t("cancel.keep")}
          </a>
        </section>
      </main>
      <SiteFooter />
    </>
  );
}

/** With `?token=` (a renewal notice's cancel link) the screen works from the token, not the cabinet. */
export function CancelScreen() {
  const [token] = useState(takeCancelToken);
  useEffect(() => {
    // Started beside the texts' loading, not after it.
    if (token !== undefined) void openCancelLink();
  }, [token]);
  return <I18nBoundary>{token === undefined ? <CancelScreenContent /> : <CancelByLink />}</I18nBoundary>;
}
