import { t } from "elysia";
import { toCurrencyUnits } from "../../../../core/money";
import { paymentProviders } from "../../../../core/payment-methods";
import { oneOf } from "../../../platform/schemas";
import type { RefundLine, RefundRefusal } from "./refund-plan";
import type { RefundWords } from "./refund-words";

export const refundBody = t.Object({
  email: t.String({ minLength: 3, maxLength: 320 }),
  uid: t.Optional(t.String({ maxLength: 256 })),
  paymentIds: t.Optional(
    t.Array(t.Union([t.String({ minLength: 1, maxLength: 64 }), t.Integer({ minimum: 1 })]), {
      minItems: 1,
      maxItems: 50,
    }),
  ),
});

const refundPaymentFields = {
  transactionId: t.String(),
  amount: t.Number(),
  kind: t.Union([t.Literal("first"), t.Literal("renewal"), t.Literal("device")]),
  dateTime: t.String(),
  // Added after the others: which provider the money goes back through (DESIGN §6).
  provider: oneOf(paymentProviders),
};
const refundPayment = t.Object(refundPaymentFields);

export const refundAnswer = t.Object({
  Success: t.Boolean(),
  /** What happened, in the caller's language (the language cookie, then Accept-Language, then English). */
  Message: t.String(),
  payments: t.Array(refundPayment),
  total: t.Number(),
  currency: t.Optional(t.String()),
  /** Only after a gateway failure part way: what is still unrefunded, and why. */
  notRefunded: t.Optional(t.Array(t.Object({ ...refundPaymentFields, reason: t.String() }))),
  /** When nothing was refunded for a reason of ours: its code and the facts it names (Message words them). */
  reason: t.Optional(t.Object({ code: t.String(), values: t.Record(t.String(), t.String()) })),
  /** When the gateway stopped a run: which payment, and whether it refused (with its own words) or never answered. */
  gatewayFailure: t.Optional(
    t.Object({
      transactionId: t.String(),
      refused: t.Boolean(),
      detail: t.Optional(t.String()),
    }),
  ),
  /** Whether this refund (or the one previewed) ends the customer's access. */
  endsAccess: t.Optional(t.Boolean()),
});

export type RefundAnswer = typeof refundAnswer.static;

export const paymentIdsDescription =
  "paymentIds (administrators): the gateway transaction ids (as the receipts and the preview show them) of exactly the payments to refund. Each must be this customer's, completed and not yet refunded; otherwise nothing is refunded and Message names the first that is not. Without paymentIds: every completed, unrefunded payment of the current period (the charge that opened it and the extra-device charges within it).";

/** Sums are made in minor units, and only then stated in currency units, as the spec's amounts. */
export const totalOf = (lines: RefundLine[]) => lines.reduce((sum, line) => sum + line.amount, 0);

export function paymentView(line: RefundLine) {
  return {
    transactionId: line.transactionId,
    amount: toCurrencyUnits(line.amount),
    kind: line.kind,
    dateTime: new Date(line.createdAt).toISOString(),
  };
}

/**
 * A payment as the preview and the refund answer list it: with the provider the money goes
 * back through. The audit entry keeps `paymentView`'s fields, as entries written before it.
 */
export const answeredPayment = (line: RefundLine) => ({ ...paymentView(line), provider: line.provider });

export function answerOf(isSuccess: boolean, message: string, lines: RefundLine[] = []): RefundAnswer {
  return {
    Success: isSuccess,
    Message: message,
    payments: lines.map(answeredPayment),
    total: toCurrencyUnits(totalOf(lines)),
    ...(lines[0] ? { currency: lines[0].currency } : {}),
  };
}

/** Nothing refunded, for a reason of ours: its words in the operator's language, and its code and facts. */
export const refusalOf = (refusal: { reason: RefundRefusal }, words: RefundWords): RefundAnswer => ({
  ...answerOf(false, words.refusal(refusal.reason)),
  reason: refusal.reason,
});
