import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { SiteFooter } from "../../components/react/SiteFooter";
import { Spinner } from "../../components/react/Spinner";
import { useTranslation } from "../../lib/i18n/use-translation";
import { referralRuleValues } from "../../lib/referral-rule";
import { showToast } from "../../lib/toast/toast-store";
import { $referralCode, inviteLink, loadReferralCode } from "../../stores/referral";
import { InviteeList } from "./InviteeList";

/** Rendered by the server at 256 px, margin 4, level H (spec §9). */
const qrUrl = "/api/profile/referralQr.png";

/**
 * Web Share exists on phones and some desktops; where it does not (desktop Linux, most
 * desktop Firefox) the Share button is left out, since Copy link and Download do the job.
 */
const canShare = () => typeof navigator.share === "function";

/** /promo: the customer's invite link as text, QR, share, copy and download. */
function ReferralScreenContent() {
  const { t, language } = useTranslation();
  const state = useStore($referralCode);
  const [isShareShown] = useState(canShare);

  useEffect(() => {
    document.title = t("promo.pageTitle");
  }, [t]);
  useEffect(() => {
    void loadReferralCode();
  }, []);

  const copy = async (code: string, done: string) => {
    try {
      await navigator.clipboard.writeText(inviteLink(code));
      showToast(done, "success");
    } catch {
      showToast(t("promo.copyFailed"), "error");
    }
  };

  const share = async (code: string) => {
    try {
      await navigator.share({
        title: t("promo.shareTitle"),
        text: t("promo.shareText"),
        url: inviteLink(code),
      });
    } catch (error) {
      // Closing the share sheet is a choice, not a failure; anything else still gets the link out.
      if ((error as Error).name !== "AbortError") await copy(code, t("promo.sharedByCopy"));
    }
  };

  if (state.status === "failed") {
    return (
      <>
        <main id="main" className="screen screen--center">
          <section className="card referral__failed" aria-labelledby="referral-failed-title">
            <h1 id="referral-failed-title">{t("promo.codeFailedTitle")}</h1>
            <p role="alert">
              {state.message ?? t(state.cause === "network" ? "promo.codeFailed" : "promo.codeFailedServer")}
            </p>
            <button type="button" className="button button--primary" onClick={() => void loadReferralCode()}>
              {t("promo.inviteesRetry")}
            </button>
            <a className="button button--ghost" href="/profile">
              {t("common.back")}
            </a>
          </section>
        </main>
        <SiteFooter />
      </>
    );
  }
  // Spec: a spinner until the code is there, and the code only once it is longer than 10 characters.
  if (state.status === "loading" || state.code.length <= 10) {
    return (
      <main id="main" className="screen screen--center">
        <Spinner label={t("common.loading")} />
      </main>
    );
  }
  const { code } = state;
  const rule = referralRuleValues(language);
  return (
    <>
      <main id="main" className="screen referral">
        <a className="button button--ghost referral__back" href="/profile">
          {t("common.back")}
        </a>
        <h1>{t("promo.headline")}</h1>
        <ol className="referral__steps">
          <li>{t("promo.step1")}</li>
          <li>{t("promo.step2")}</li>
          <li>{t("promo.step3", rule)}</li>
        </ol>
        {/* The rule as the discount is computed (DESIGN §13): prorated per month of the friend's payment. */}
        <p className="muted" data-testid="referral-rule">
          {t("promo.rule", rule)}
        </p>
        <div className="card referral__card">
          <img src={qrUrl} width={256} height={256} alt={t("promo.qrAlt")} data-testid="invite-qr" />
          <p className="referral__link" data-testid="invite-link">
            {inviteLink(code)}
          </p>
          <div className="referral__actions">
            {isShareShown && (
              <button type="button" className="button button--primary" onClick={() => void share(code)}>
                {t("promo.share")}
              </button>
            )}
            <button
              type="button"
              className={`button ${isShareShown ? "button--ghost" : "button--primary"}`}
              onClick={() => void copy(code, t("promo.copied"))}
            >
              {t("promo.copy")}
            </button>
            <a className="button button--ghost" href={`${qrUrl}?download=1`} download="kannt-invite-qr.png">
              {t("promo.download")}
            </a>
          </div>
        </div>
        <InviteeList />
      </main>
      <SiteFooter />
    </>
  );
}

export function ReferralScreen() {
  return (
    <I18nBoundary>
      <ReferralScreenContent />
    </I18nBoundary>
  );
}
