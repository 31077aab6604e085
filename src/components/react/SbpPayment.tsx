import { formatTime } from "../../../core/date-time";
import { formatUnits } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import { payAnotherWay } from "../../stores/payment";
import type { SbpWait } from "../../stores/sbp-payment";

type Props = { wait: Exclude<SbpWait, { state: "none" }>; onNewQr: () => void; isWorking: boolean };

/**
 * An SBP payment under way (DESIGN §6): the amount, the QR to scan on a desktop or on a
 * phone the button that opens the bank's app (a new tab, so this page goes on waiting), and
 * the QR's end; then what the bank said, and after a decline or the QR's end a new QR or the card.
 */
export function SbpPayment({ wait, onNewQr, isWorking }: Props) {
  const { t, language } = useTranslation();
  const { order } = wait;
  const amount = formatUnits(order.amount, order.currency);
  return (
    // With an image, a desktop shows the QR and a phone the link (app.css: a narrow or touch
    // screen cannot scan a QR shown on itself); without one the link is all there is.
    <section className={`sbp${order.qrImage ? " sbp--qr" : ""}`} aria-labelledby="sbp-title">
      <h3 id="sbp-title">{t("purchase.methodSbp")}</h3>
      <p className="sbp__amount">{amount}</p>
      {wait.state === "waiting" && (
        <>
          <div className="sbp__phone">
            <p>{t("purchase.sbpPhoneHint")}</p>
            <a className="button button--primary" href={order.qrUrl} target="_blank" rel="noopener">
              {t("purchase.sbpOpenBank")}
            </a>
          </div>
          {order.qrImage && (
            <div className="sbp__desktop">
              <p>{t("purchase.sbpScan")}</p>
              <img
                className="sbp__qr"
                src={`data:image/png;base64,${order.qrImage}`}
                alt={t("purchase.sbpQrAlt", { amount })}
                width={256}
                height={256}
              />
            </div>
          )}
          <p className="muted">
            {t("purchase.sbpValidUntil", { time: formatTime(order.expiresAt, language) })}
          </p>
          <p className="sbp__status" role="status">
            <span className="spinner__circle" aria-hidden="true" />
            {t("purchase.sbpWaiting")}
          </p>
          {wait.isCheckFailing && (
            <p className="form__error" role="alert">
              {t("purchase.sbpCheckFailing")}
            </p>
          )}
        </>
      )}
      {wait.state === "ended" && (
        <p className="form__error" role="alert">
          {wait.reason}
        </p>
      )}
      <div className="sbp__actions">
        {wait.state === "ended" && (
          <button type="button" className="button button--primary" disabled={isWorking} onClick={onNewQr}>
            {t("purchase.sbpNewQr")}
          </button>
        )}
        <button type="button" className="button button--ghost" onClick={payAnotherWay}>
          {t("purchase.sbpPayByCard")}
        </button>
      </div>
    </section>
  );
}
