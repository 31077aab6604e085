import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $recoveryCodes,
  $security,
  $securityRead,
  $wasEnrolling,
  dismissRecoveryCodes,
  hasFactor,
  openSecurity,
  retrySecurity,
} from "../../stores/panel-security";
import { isSupportOperator } from "../../stores/panel-session";
import { FreshCheckDialog } from "./FreshCheckDialog";
import { PanelLayout } from "./PanelLayout";
import { Failed, Loading } from "./PanelStates";
import { PasskeysPart } from "./PasskeysPart";
import { OnceRecoveryCodes, RecoveryCodesPart } from "./RecoveryCodesPart";
import { TotpPart } from "./TotpPart";

/** Until a factor is added, nothing else of the panel opens for this operator. */
function EnrolmentBanner() {
  const { t } = useTranslation();
  return (
    <section className="card card--warning" aria-labelledby="enrolment-title">
      <h2 id="enrolment-title">{t("panel.securityEnrolTitle")}</h2>
      <p>{t(isSupportOperator() ? "panel.securityEnrolSupport" : "panel.securityEnrolAdmin")}</p>
      <p className="muted">{t("panel.securityEnrolHow")}</p>
    </section>
  );
}

/** The first factor is in: the rest of the panel is open now. */
function Enrolled() {
  const { t } = useTranslation();
  return (
    <section className="card card--accent" aria-labelledby="enrolled-title">
      <h2 id="enrolled-title">{t("panel.securityEnrolledTitle")}</h2>
      <p>{t("panel.securityEnrolled")}</p>
      <a className="button button--primary" href="/panel-search">
        {t("panel.securityContinue")}
      </a>
    </section>
  );
}

function Security() {
  const loaded = useStore($securityRead);
  const security = useStore($security);
  const codes = useStore($recoveryCodes);
  const wasEnrolling = useStore($wasEnrolling);
  useEffect(() => {
    void openSecurity();
  }, []);

  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "failed") return <Failed failure={loaded} onRetry={() => void retrySecurity()} />;
  if (!security) return null;
  const isEnrolled = hasFactor(security);
  return (
    <>
      {codes && <OnceRecoveryCodes key={codes.join()} codes={codes} onDismiss={dismissRecoveryCodes} />}
      {security.isRequired && !isEnrolled && <EnrolmentBanner />}
      {wasEnrolling && isEnrolled && !codes && <Enrolled />}
      <PasskeysPart security={security} />
      <TotpPart security={security} />
      {isEnrolled && <RecoveryCodesPart security={security} />}
      <FreshCheckDialog security={security} />
    </>
  );
}

/** /panel-security: the operator's own second factor, open to every operator. */
export function PanelSecurity() {
  return (
    <PanelLayout title={(t) => t("panel.securityTitle")} section="security">
      <Security />
    </PanelLayout>
  );
}
