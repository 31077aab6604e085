import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { formatDateTime } from "../../../core/date-time";
import type { Currency } from "../../../core/money";
import { HoldButton } from "../../components/react/HoldButton";
import { formatUnits } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $refundPreview,
  $refundResult,
  loadRefundPreview,
  makeRefund,
  type RefundAnswer,
  type RefundCustomer,
} from "../../stores/panel-refund";
import { customerHref } from "../../stores/panel-session";
import { $customer, loadCustomer, retryCustomer } from "../../stores/panel-user";
import { PanelLayout } from "./PanelLayout";
import { Failed, Loading, NoCustomer, ScrollRegion, WithCustomer } from "./PanelStates";

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
      <ScrollRegion label={t("panel.refundPreviewTitle")}>
        <table className="panel-table">
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
                <td className="panel-nowrap">{formatDateTime(payment.dateTime, language)}</td>
                <td>{t(kindKeys[payment.kind])}</td>
                <td>{formatUnits(payment.amount, currency)}</td>
                <td>{payment.transactionId}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <p className="refund-total">{t("panel.refundTotal", { total: formatUnits(answer.total, currency) })}</p>
    </>
  );
}

/** The refund of the customer this page names (its URL's id, as the server answered for it). */
function Refund({ customer }: { customer: RefundCustomer }) {
  const { t } = useTranslation();
  const preview = useStore($refundPreview);
  const result = useStore($refundResult);
  const { email, uid } = customer;
  useEffect(() => {
    void loadRefundPreview({ email, uid });
  }, [email, uid]);
  const canRefund = preview.state === "ready" && preview.answer.Success;
  return (
    <>
      <h3>{t("panel.refundPreviewTitle")}</h3>
      {preview.state === "loading" && <p className="muted">{t("panel.loading")}</p>}
      {preview.state === "failed" && (
        <div role="alert" className="panel-failed">
          <p className="form__error">{preview.message}</p>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => void loadRefundPreview({ email, uid })}
          >
            {t("panel.retry")}
          </button>
        </div>
      )}
      {preview.state === "ready" &&
        (preview.answer.Success ? (
          <RefundList answer={preview.answer} />
        ) : (
          // Worded by the server in the operator's language (the language cookie goes along).
          <p className="refund">{preview.answer.Message}</p>
        ))}
      <HoldButton
        label={t("panel.makeRefund")}
        hint={t("panel.holdToRefund")}
        variant="danger"
        disabled={!canRefund}
        onConfirm={() => makeRefund({ email, uid })}
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

/** The refund picks the account by uid: the customer is loaded first, from the URL's id. */
function Management({ id }: { id: number }) {
  const { t } = useTranslation();
  const loaded = useStore($customer);
  useEffect(() => {
    void loadCustomer(id);
  }, [id]);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "failed")
    return loaded.code === "customer_not_found" ? (
      <NoCustomer reason="unknown" />
    ) : (
      <Failed failure={loaded} onRetry={() => void retryCustomer()} />
    );
  return (
    <>
      <p className="panel-crumbs">
        <a href={customerHref("panel-user", id)}>{t("panel.back")}</a>
        <span className="panel-crumbs__who">{loaded.data.email}</span>
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
        <Refund customer={{ email: loaded.data.email, uid: loaded.data.uid }} />
      </section>
    </>
  );
}

export function PanelSubscription() {
  return (
    <PanelLayout title={(t) => t("panel.subscriptionTitle")} section="search">
      <WithCustomer>{(id) => <Management id={id} />}</WithCustomer>
    </PanelLayout>
  );
}
