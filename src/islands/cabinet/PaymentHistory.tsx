import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { formatDate, formatUnits } from "../../lib/format";
import type { TranslationKey } from "../../lib/i18n/runtime";
import { useTranslation } from "../../lib/i18n/use-translation";
import { $paymentHistory, loadPaymentHistory, type PaymentEntry } from "../../stores/payment-history";

const purposeKeys: Record<PaymentEntry["purpose"], TranslationKey> = {
  trial: "cabinet.purposeTrial",
  first: "cabinet.purposeFirst",
  renewal: "cabinet.purposeRenewal",
  device: "cabinet.purposeDevice",
  refund: "cabinet.purposeRefund",
};

const statusKeys: Record<PaymentEntry["status"], TranslationKey> = {
  paid: "cabinet.statusPaid",
  declined: "cabinet.statusDeclined",
  refunded: "cabinet.statusRefunded",
  refund_in_progress: "cabinet.statusRefundInProgress",
  pending: "cabinet.statusPending",
};

/** The purchase screens' names of the methods: no words of its own on the mobile pages' 100 KB. */
const methodKeys: Record<PaymentEntry["method"], TranslationKey> = {
  card: "purchase.methodCard",
  sbp: "purchase.methodSbp",
};

/**
 * The customer's own payments: date, what for, amount, status with the method (card or
 * SBP, as the receipt page says "Paid · Card") and the receipt.
 */
export function PaymentHistory() {
  const { t, language } = useTranslation();
  const history = useStore($paymentHistory);
  useEffect(() => {
    void loadPaymentHistory();
  }, []);
  return (
    <section className="card" aria-labelledby="payments-title" aria-busy={history.status === "loading"}>
      <h2 id="payments-title">{t("cabinet.paymentsTitle")}</h2>
      {history.status === "loading" && <p className="muted">{t("cabinet.paymentsLoading")}</p>}
      {history.status === "failed" && (
        <>
          <p role="alert">{t("cabinet.paymentsFailed")}</p>
          <button type="button" className="button button--ghost" onClick={() => void loadPaymentHistory()}>
            {t("cabinet.paymentsRetry")}
          </button>
        </>
      )}
      {history.status === "ready" && history.payments.length === 0 && (
        <p className="muted">{t("cabinet.paymentsEmpty")}</p>
      )}
      {history.status === "ready" && history.payments.length > 0 && (
        <div className="payments">
          <table className="payments__table">
            <thead>
              <tr>
                <th scope="col">{t("cabinet.paymentDate")}</th>
                <th scope="col">{t("cabinet.paymentPurpose")}</th>
                <th scope="col">{t("cabinet.paymentAmount")}</th>
                <th scope="col">{t("cabinet.paymentStatus")}</th>
                <th scope="col">{t("cabinet.paymentReceipt")}</th>
              </tr>
            </thead>
            <tbody>
              {history.payments.map((payment) => (
                <tr key={payment.id} data-status={payment.status}>
                  <td data-label={t("cabinet.paymentDate")}>{formatDate(payment.date, language)}</td>
                  <td data-label={t("cabinet.paymentPurpose")}>
                    {t(purposeKeys[payment.purpose], {
                      months: payment.months ?? 1,
                      days: payment.trialDays ?? 1,
                    })}
                  </td>
                  <td className="payments__amount" data-label={t("cabinet.paymentAmount")}>
                    {payment.purpose === "refund" ? "−" : ""}
                    {formatUnits(payment.amount, payment.currency)}
                  </td>
                  <td data-label={t("cabinet.paymentStatus")}>
                    {t(statusKeys[payment.status])} · {t(methodKeys[payment.method])}
                  </td>
                  <td data-label={t("cabinet.paymentReceipt")}>
                    {payment.receiptUrl ? (
                      <a href={payment.receiptUrl} target="_blank" rel="noopener">
                        {t("cabinet.receiptTitle", { number: payment.paymentId })}
                      </a>
                    ) : (
                      "—"
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {history.hasMore && <p className="muted">{t("cabinet.paymentsMore")}</p>}
        </div>
      )}
    </section>
  );
}
