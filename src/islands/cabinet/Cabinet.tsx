import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { SignInButtons } from "../../components/react/SignInButtons";
import { SiteFooter } from "../../components/react/SiteFooter";
import { Spinner } from "../../components/react/Spinner";
import { cabinetVariant } from "../../lib/cabinet-view";
import { useTranslation } from "../../lib/i18n/use-translation";
import { $cabinetState, $needsSignIn, $profile, $shop, loadCabinet } from "../../stores/cabinet";
import { AccountDataBlock, AccountDeleted } from "./AccountDataBlock";
import { CardBlock } from "./CardBlock";
import { AppInstallBlock, DevicesBlock, SupportBlock } from "./DevicesBlock";
import { PaymentHistory } from "./PaymentHistory";
import { PendingPurchaseBlock } from "./PendingPurchaseBlock";
import { PurchaseBlock } from "./PurchaseBlock";
import { CancelledBlock, NextChargeBlock, ReferralTeaser } from "./SubscriptionBlocks";
import { TopBlock } from "./TopBlock";

type Props = { prepare?: () => Promise<boolean> };

/** The customer cabinet (spec §2): blocks by subscription status. */
function CabinetContent({ prepare }: Props) {
  const { t } = useTranslation();
  const state = useStore($cabinetState);
  const profile = useStore($profile);
  const shop = useStore($shop);
  const needsSignIn = useStore($needsSignIn);

  useEffect(() => {
    void (prepare ? prepare() : Promise.resolve(true)).then((isReady) => {
      if (isReady) void loadCabinet();
    });
  }, [prepare]);

  if (state === "deleted") return <AccountDeleted />;
  if (needsSignIn) {
    return (
      <main id="main" className="screen screen--center">
        <a className="brand" href="/">
          Kannt
        </a>
        <section className="card login" aria-labelledby="login-title">
          <h1 id="login-title">{t("auth.mobileTitle")}</h1>
          <p>{t("auth.text")}</p>
          <SignInButtons target={location.pathname} />
        </section>
      </main>
    );
  }
  if (state === "failed") {
    return (
      <>
        <main id="main" className="screen screen--center">
          <a className="brand" href="/">
            Kannt
          </a>
          <section className="card cabinet-error" role="alert" aria-labelledby="cabinet-error-title">
            <h1 id="cabinet-error-title">{t("cabinet.loadFailedTitle")}</h1>
            <p>{t("cabinet.loadFailedText")}</p>
            <button type="button" className="button button--primary" onClick={() => void loadCabinet()}>
              {t("cabinet.retry")}
            </button>
          </section>
        </main>
        <SiteFooter />
      </>
    );
  }
  if (state === "loading" || !shop || !profile) {
    return (
      <main id="main" className="screen screen--center">
        <Spinner label={t("common.loading")} />
      </main>
    );
  }
  const variant = cabinetVariant(profile.userInfo.subscriptionStatus, profile.userInfo.subscriptionIsActive);
  return (
    <>
      <main id="main" className="screen cabinet" data-variant={variant}>
        <a className="brand" href="/">
          Kannt
        </a>
        <h1 className="visually-hidden">{t("cabinet.title")}</h1>
        <TopBlock profile={profile} />
        <PendingPurchaseBlock />
        {variant === "purchase" && <PurchaseBlock shop={shop} profile={profile} />}
        {variant === "purchase" && profile.card.isSaved && <CardBlock profile={profile} />}
        {variant !== "purchase" && (
          <>
            <ReferralTeaser shop={shop} />
            {variant === "active" ? (
              <NextChargeBlock profile={profile} shop={shop} />
            ) : (
              <CancelledBlock profile={profile} />
            )}
            {(profile.card.isSaved || profile.card.removedAt) && <CardBlock profile={profile} />}
            <DevicesBlock profile={profile} shop={shop} canAddDevice={variant === "active"} />
            <AppInstallBlock />
          </>
        )}
        <PaymentHistory />
        <AccountDataBlock />
        <SupportBlock />
      </main>
      <SiteFooter />
    </>
  );
}

export function Cabinet(props: Props) {
  return (
    <I18nBoundary titleKey="pageTitle.profile">
      <CabinetContent {...props} />
    </I18nBoundary>
  );
}
