import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { SiteFooter } from "../../components/react/SiteFooter";
import { Spinner } from "../../components/react/Spinner";
import { useTranslation } from "../../lib/i18n/use-translation";
import { showToast } from "../../lib/toast/toast-store";
import { $referralCode, inviteLink, loadReferralCode } from "../../stores/referral";
import { InviteeList } from "./InviteeList";

/** Rendered by the server at 256 px, margin 4, level H (spec §9). */
const qrUrl = "/api/profile/referralQr.png";

/** /promo: the customer's invite link as text, QR, share, copy and download. */
function ReferralScreenContent() {
  const { t } = useTranslation();
  const code = useStore($referralCode);

  useEffect(() => {
    void loadReferralCode();
  }, []);

  const share = async () => {
    if (!code) return;
    if (!navigator.share) {
      showToast(t("promo.shareUnsupported"), "error");
      return;
    }
    try {
      await navigator.share({
        title: t("promo.shareTitle"),
        text: t("promo.shareText"),
        url: inviteLink(code),
      });
    } catch (error) {
      if ((error as Error).name !== "AbortError") showToast(t("promo.shareFailed"), "error");
    }
  };

  const copy = async () => {
    if (!code) return;
    try {
      await navigator.clipboard.writeText(inviteLink(code));
      showToast(t("promo.copied"), "success");
    } catch {
      showToast(t("promo.copyFailed"), "error");
    }
  };

  if (!code || code.length <= 10) {
    return (
      <main id="main" className="screen screen--center">
        <Spinner label={t("common.loading")} />
      </main>
    );
  }
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
          <li>{t("promo.step3")}</li>
        </ol>
        <div className="card referral__card">
          <img src={qrUrl} width={256} height={256} alt={t("promo.qrAlt")} data-testid="invite-qr" />
          <p className="referral__link" data-testid="invite-link">
            {inviteLink(code)}
          </p>
          <div className="referral__actions">
            <button type="button" className="button button--primary" onClick={share}>
              {t("promo.share")}
            </button>
            <button type="button" className="button button--ghost" onClick={copy}>
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
