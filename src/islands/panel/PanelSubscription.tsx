import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { HoldButton } from "../../components/react/HoldButton";
import { formatDate, formatUnits } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import type { Currency } from "../../lib/money";
import {
  $refundPreview,
  $refundResult,
  loadRefundPreview,
  makeRefund,
  type RefundAnswer,
  selectedCustomer,
} from "../../stores/panel-refund";
import { PanelLayout } from "./PanelLayout";

const kindKeys = {
  first: "panel.refundKindFirst",
  renewal: "panel.refundKindRenewal",
  device: "panel.refundKindDevice",
} as const;

/** The payments a refund would return now and their total, shown before the hold (DESIGN §13). */
function RefundList({ answer }: { answer: RefundAnswer }) {
  const { t, language } = useTranslation();
  const currency: Currency = answer.currency === "KZT" ? "KZT" : "RUB";
  return (
    <>
      <div className="panel-scroll">
        <table className="panel-table" aria-label={t("panel.refundPreviewTitle")}>
          <thead>
            <tr>
              <th>{t("panel.date")}</th>
              <th>{t("panel.refundKind")}</th>
              <th>{t("panel.refundAmount")}</th>
              <th>{t("panel.transactionId")}</th>
            </tr>
          </thead>
          <tbody>
            {answer.payments.map((payment) => (
              <tr key={payment.transactionId}>
                <td>{formatDate(payment.dateTime, language)}</td>
                <td>{t(kindKeys[payment.kind])}</td>
                <td>{formatUnits(payment.amount, currency)}</td>
                <td>{payment.transactionId}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="refund-total">{t("panel.refundTotal", { total: formatUnits(answer.total, currency) })}</p>
    </>
  );
}

function Refund() {
  const { t } = useTranslation();
  const preview = useStore($refundPreview);
  const result = useStore($refundResult);
  useEffect(() => {
    void loadRefundPreview();
  }, []);
  const canRefund = preview.state === "ready" && preview.answer.Success;
  return (
    <>
      <h3>{t("panel.refundPreviewTitle")}</h3>
      {preview.state === "loading" && <p className="muted">{t("panel.loading")}</p>}
      {preview.state === "failed" && (
        <p role="alert" className="form__error">
          {preview.message}
        </p>
      )}
      {preview.state === "ready" &&
        (preview.answer.Success ? (
          <RefundList answer={preview.answer} />
        ) : (
          <p className="refund">{preview.answer.Message}</p>
        ))}
      <HoldButton
        label={t("panel.makeRefund")}
        hint={t("panel.holdToRefund")}
        variant="danger"
        disabled={!canRefund}
        onConfirm={makeRefund}
      />
      {result && "answer" in result && (
        <p role="status" className={result.answer.Success ? "refund refund--success" : "refund"}>
          {result.answer.Message}
        </p>
      )}
      {result && "failure" in result && (
        <p role="alert" className="form__error">
          {result.failure}
        </p>
      )}
    </>
  );
}

function Management() {
  const { t } = useTranslation();
  return (
    <>
      <p>
        <a href="/panel-user">{t("panel.back")}</a> · {selectedCustomer().email}
      </p>
      <section className="card" aria-labelledby="reduce-title">
        <h2 id="reduce-title">{t("panel.reduceTitle")}</h2>
        <p className="muted">{t("panel.reduceNote")}</p>
        <button type="button" className="button button--ghost" disabled>
          {t("panel.reduceButton")}
        </button>
      </section>
      <section className="card card--warning" aria-labelledby="cancel-user-title">
        <h2 id="cancel-user-title">{t("panel.cancelTitle")}</h2>
        <p>{t("panel.cancelWarning")}</p>
        <Refund />
      </section>
    </>
  );
}

export function PanelSubscription() {
  return (
    <PanelLayout title={(t) => t("panel.subscriptionTitle")}>
      <Management />
    </PanelLayout>
  );
}
