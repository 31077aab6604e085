import { type TranslationKey, translator } from "../../../../core/i18n";
import type { Language } from "../../../../core/languages";
import { formatMoney } from "../../../../core/money";
import { mailWords } from "../../mail/mail-words";
import { totalOf } from "./refund-model";
import type { RefundLine, RefundRefusal } from "./refund-plan";

/**
 * A refund's sentences (the answer's `Message`), worded from core/i18n `refund.*` in the
 * operator's language: the panel shows them as they come.
 */
export type RefundWords = ReturnType<typeof refundWords>;

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

/** The payments' total and count, as every `refund.*` text that names what went back takes them. */
const amountOf = (lines: RefundLine[]) => ({
  total: formatMoney(totalOf(lines), lines[0]?.currency ?? "RUB"),
  count: lines.length,
});

export function refundWords(language: Language) {
  const t = translator(language);
  /**
   * A status in the language's own word; English keeps the name the API and the spec give
   * it (EXPIRED, declined), which English callers of the API have always matched on.
   */
  const statusWord = (keys: Record<string, TranslationKey>, status = "") => {
    const key = keys[status];
    return language === "en" || !key ? status : t(key);
  };
  return {
    /** Why nothing was refunded: the refusal's code and the facts it names. */
    refusal({ code, values }: RefundRefusal): string {
      const worded: Record<string, string> = { ...values };
      if (code === "notRunning") worded.status = statusWord(subscriptionStatusKeys, values.status);
      if (code === "notCompleted") worded.status = statusWord(paymentStatusKeys, values.status);
      // The operator's clock is not known here: the moment is told with its zone, as mails tell it.
      if (values.retryAt) worded.retryAt = mailWords(language).moment(Date.parse(values.retryAt));
      return t(`refund.${code}`, worded);
    },
    preview: (lines: RefundLine[], endsAccess: boolean) =>
      t(endsAccess ? "refund.preview" : "refund.previewKeepsAccess", amountOf(lines)),
    done: (lines: RefundLine[], endsAccess: boolean) =>
      t(endsAccess ? "refund.done" : "refund.doneKeepsAccess", amountOf(lines)),
    /** A run the gateway stopped: which payment and why, then what went back before it. */
    stopped(
      failure: { line: RefundLine; isOutcomeUnknown: boolean; gatewayDetail?: string },
      refunded: RefundLine[],
      endsAccess: boolean,
    ): string {
      const { transactionId } = failure.line;
      const stop = failure.isOutcomeUnknown
        ? t("refund.gatewayNoAnswer", { transactionId })
        : t("refund.gatewayRefused", {
            transactionId,
            detail: failure.gatewayDetail || t("refund.gatewayGaveNoReason"),
          });
      const before =
        refunded.length === 0
          ? t("refund.nothingDone")
          : t(endsAccess ? "refund.partial" : "refund.partialKeepsAccess", amountOf(refunded));
      return `${stop} ${before}`;
    },
    /** Why one payment of a stopped run is still unrefunded (`notRefunded[].reason`). */
    notRefunded(failure: { isOutcomeUnknown: boolean; gatewayDetail?: string } | undefined): string {
      if (!failure) return t("refund.notRefundedNotSent");
      if (failure.isOutcomeUnknown) return t("refund.notRefundedNoAnswer");
      return t("refund.notRefundedRefused", {
        detail: failure.gatewayDetail || t("refund.gatewayGaveNoReason"),
      });
    },
  };
}

/** The audit keeps its records in one language, English, whoever pressed and in whatever language. */
export const recordWords = refundWords("en");
