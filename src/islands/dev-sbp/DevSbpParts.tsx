import { useStore } from "@nanostores/react";
import { formatDateTime } from "../../../core/date-time";
import { formatUnits } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $autopayAccount,
  autopayAccounts,
  chooseAutopayAccount,
  type DevSbpState,
  type SbpQr,
} from "../../stores/dev-sbp";

/** What the shop asks to be paid, as a bank app shows it before the payer confirms. */
export function QrSummary({ qr }: { qr: SbpQr }) {
  const { t, language } = useTranslation();
  // SBP moves roubles only; the bank refuses a QR in any other currency.
  const currency = qr.currency === "KZT" ? "KZT" : "RUB";
  return (
    <>
      <dl className="dev-sbp__details">
        <div>
          <dt>{t("devSbp.amount")}</dt>
          <dd className="dev-sbp__amount">{formatUnits(qr.amount, currency)}</dd>
        </div>
        <div>
          <dt>{t("devSbp.merchant")}</dt>
          <dd>{qr.merchant}</dd>
        </div>
        <div>
          <dt>{t("devSbp.description")}</dt>
          <dd>{qr.description}</dd>
        </div>
        <div>
          <dt>{t("devSbp.expires")}</dt>
          <dd>{formatDateTime(qr.expiresAt, language)}</dd>
        </div>
        {qr.payerPhone && (
          // The phone the shop sent with the QR, where its terminal asks for one (SBP_PAYER_PHONE).
          <div>
            <dt>{t("devSbp.payerPhone")}</dt>
            <dd>{qr.payerPhone}</dd>
          </div>
        )}
      </dl>
      <p>{t(qr.asksAutopay ? "devSbp.autopayAsked" : "devSbp.autopayNotAsked")}</p>
    </>
  );
}

/** For people testing the shop: how the payer's bank will answer the autopay charges that follow. */
export function AutopayChoice({ isDisabled }: { isDisabled: boolean }) {
  const { t } = useTranslation();
  const chosen = useStore($autopayAccount);
  return (
    <fieldset className="dev-sbp__accounts" disabled={isDisabled}>
      <legend>{t("devSbp.accountLegend")}</legend>
      {autopayAccounts.map((account) => (
        <label key={account} className="checkbox">
          <input
            type="radio"
            name="autopay-account"
            value={account}
            checked={chosen === account}
            onChange={() => chooseAutopayAccount(account)}
          />
          <span>{t(`devSbp.account.${account}`)}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** What happened, and the way back to the shop. */
export function Outcome({ state }: { state: Extract<DevSbpState, { status: "done" }> }) {
  const { t } = useTranslation();
  const isPaid = state.outcome === "paid";
  return (
    <div className="dev-sbp__outcome" role="status">
      <p className={isPaid ? "dev-sbp__paid" : "form__error"}>
        {t(`devSbp.outcome.${state.outcome}`, { code: state.checkCode ?? 0 })}
      </p>
      {state.transactionId !== undefined && (
        <p className="muted">{t("devSbp.transaction", { id: state.transactionId })}</p>
      )}
      <a className="button button--primary" href="/profile">
        {t("devSbp.back")}
      </a>
    </div>
  );
}
