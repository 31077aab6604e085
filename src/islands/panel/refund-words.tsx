import { formatDateTime } from "../../../core/date-time";
import type { Currency } from "../../../core/money";
import { formatUnits } from "../../lib/format";
import type { TranslationKey } from "../../lib/i18n/runtime";
import { useTranslation } from "../../lib/i18n/use-translation";
import type { RefundAnswer } from "../../stores/panel-refund";

/** The server's refusal codes and the operator's words for them (the English `Message` is for API callers). */
const reasonKeys: Record<string, TranslationKey> = {
  uidMissing: "panel.refundReason.uidMissing",
  uidUnknown: "panel.refundReason.uidUnknown",
  uidAmbiguous: "panel.refundReason.uidAmbiguous",
  uidOtherAccount: "panel.refundReason.uidOtherAccount",
  notRunning: "panel.refundReason.notRunning",
  noPeriodCharge: "panel.refundReason.noPeriodCharge",
  nothingLeft: "panel.refundReason.nothingLeft",
  busy: "panel.refundReason.busy",
  notTheirs: "panel.refundReason.notTheirs",
  alreadyRefunded: "panel.refundReason.alreadyRefunded",
  notCompleted: "panel.refundReason.notCompleted",
  costNothing: "panel.refundReason.costNothing",
};

const subscriptionStatusKeys: Record<string, TranslationKey> = {
  ACTIVE: "panel.statusACTIVE",
  CANCELED: "panel.statusCANCELED",
  EXPIRED: "panel.statusEXPIRED",
  NOT_ACTIVE: "panel.statusNOT_ACTIVE",
};
const paymentStatusKeys: Record<string, TranslationKey> = {
  completed: "panel.paymentCOMPLETED",
  declined: "panel.paymentDECLINED",
  refunded: "panel.paymentREFUNDED",
  pending: "panel.paymentPENDING",
};

/** Why nothing was refunded, in the operator's language; the English text only for a code this panel does not know. */
export function RefusalText({ answer }: { answer: RefundAnswer }) {
  const { t, language } = useTranslation();
  const key = answer.reason && reasonKeys[answer.reason.code];
  if (!answer.reason || !key) return <span lang="en">{answer.Message}</span>;
  const { values } = answer.reason;
  const statusKey =
    answer.reason.code === "notRunning"
      ? subscriptionStatusKeys[values.status ?? ""]
      : paymentStatusKeys[values.status ?? ""];
  return (
    <>
      {t(key, {
        ...values,
        ...(statusKey ? { status: t(statusKey) } : {}),
        ...(values.retryAt ? { retryAt: formatDateTime(values.retryAt, language) } : {}),
      })}
    </>
  );
}

/** A refund's outcome in the operator's words: done (ending access or not), refused, or stopped by the gateway part way. */
export function RefundOutcome({ answer }: { answer: RefundAnswer }) {
  const { t } = useTranslation();
  const currency: Currency = answer.currency === "KZT" ? "KZT" : "RUB";
  const done = { total: formatUnits(answer.total, currency), count: answer.payments.length };
  if (answer.Success)
    return <>{t(answer.endsAccess === false ? "panel.refundDoneKeepsAccess" : "panel.refundDone", done)}</>;
  const stop = answer.gatewayFailure;
  if (stop)
    return (
      <>
        {t(stop.refused ? "panel.refundGatewayRefused" : "panel.refundGatewayNoAnswer", {
          transactionId: stop.transactionId,
        })}
        {stop.detail && <> ({stop.detail})</>}{" "}
        {answer.payments.length > 0 ? t("panel.refundPartial", done) : t("panel.refundNotDone")}
      </>
    );
  return (
    <>
      {t("panel.refundNotDone")} <RefusalText answer={answer} />
    </>
  );
}
