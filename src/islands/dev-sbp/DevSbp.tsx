import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { useTranslation } from "../../lib/i18n/use-translation";
import { $devSbp, type DevSbpState, decide, openQr } from "../../stores/dev-sbp";
import { AutopayChoice, Outcome, QrSummary } from "./DevSbpParts";

const qrOfPage = () => new URLSearchParams(location.search).get("qr");

/**
 * DEMO ONLY: the payer's bank app for the sandbox's SBP QRs (`/dev-sbp?qr=…`, the QR's
 * link). It shows what the shop asks to be paid and pays or declines it; the shop learns
 * the outcome from the bank's notifications, as it would from a real bank.
 */
function BankApp() {
  const { t, language } = useTranslation();
  const state = useStore($devSbp);
  // The page's title is built without a language; the tab names the bank in the reader's.
  // biome-ignore lint/correctness/useExhaustiveDependencies: t changes with language
  useEffect(() => {
    document.title = t("devSbp.tabTitle");
  }, [language]);
  useEffect(() => {
    void openQr(qrOfPage());
  }, []);

  return (
    <main id="main" className="screen screen--center dev-sbp">
      <section
        className="card dev-sbp__card"
        aria-labelledby="dev-sbp-title"
        aria-busy={state.status === "loading"}
      >
        <p className="demo-badge">{t("devSbp.badge")}</p>
        <h1 id="dev-sbp-title">{t("devSbp.title")}</h1>
        <p className="muted">{t("devSbp.intro")}</p>
        {state.status === "loading" && <p className="muted">{t("devSbp.loading")}</p>}
        {state.status === "missing" && (
          <p className="form__error" role="alert">
            {t("devSbp.missing")}
          </p>
        )}
        {state.status === "failed" && (
          <>
            <p className="form__error" role="alert">
              {t(state.cause === "network" ? "devSbp.failureNetwork" : "devSbp.failed")}
            </p>
            <button type="button" className="button button--ghost" onClick={() => void openQr(qrOfPage())}>
              {t("devSbp.retry")}
            </button>
          </>
        )}
        {(state.status === "ready" || state.status === "done") && <QrSummary qr={state.qr} />}
        {state.status === "ready" && <Decision state={state} />}
        {state.status === "done" && <Outcome state={state} />}
      </section>
    </main>
  );
}

/** The payer's choice: the autopay behaviour when asked, then Pay or Decline. */
function Decision({ state }: { state: Extract<DevSbpState, { status: "ready" }> }) {
  const { t } = useTranslation();
  const { qr, action, failure } = state;
  if (qr.isExpired)
    return (
      <p className="form__error" role="alert">
        {t("devSbp.expired")}
      </p>
    );
  return (
    <>
      {qr.state === "paid" && <p className="dev-sbp__note">{t("devSbp.paidBefore")}</p>}
      {qr.asksAutopay && <AutopayChoice isDisabled={action !== undefined} />}
      {failure && (
        <p className="form__error" role="alert">
          {t(failure === "network" ? "devSbp.failureNetwork" : "devSbp.failureServer")}
        </p>
      )}
      <div className="dev-sbp__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={action !== undefined}
          aria-busy={action === "pay"}
          onClick={() => void decide("pay")}
        >
          {t("devSbp.pay")}
        </button>
        <button
          type="button"
          className="button button--ghost"
          disabled={action !== undefined}
          aria-busy={action === "decline"}
          onClick={() => void decide("decline")}
        >
          {t("devSbp.decline")}
        </button>
      </div>
    </>
  );
}

export function DevSbp() {
  return (
    <I18nBoundary>
      <BankApp />
    </I18nBoundary>
  );
}
