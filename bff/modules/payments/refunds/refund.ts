import type { Language } from "../../../../core/languages";
import { payments } from "../../../../db/queries/payments";
import { refunds } from "../../../../db/queries/refunds";
import { subscriptions } from "../../../../db/queries/subscriptions";
import type { AppContext } from "../../../context";
import { logger } from "../../../platform/logger";
import { randomToken } from "../../../platform/random";
import { queueRefundMade } from "../../mail/events";
import type { RefundOutcome } from "../providers/provider";
import { providerOf } from "../providers/provider-of";
import { receiptOf } from "../receipts/receipt";
import { recordRefundAudit, referralDiscountOfInviter } from "./refund-audit";
import { noteRefundProgress, takeRefundedSlot } from "./refund-effects";
import { answeredPayment, answerOf, type RefundAnswer, refusalOf, totalOf } from "./refund-model";
import { findRefundAccount, planRefund, type RefundLine, type RefundPlan, staleClaimMs } from "./refund-plan";
import { type RefundWords, refundWords } from "./refund-words";

export type RefundRequest = { email: string; uid?: string; paymentIds?: (string | number)[] };

const transactionIdsOf = (request: RefundRequest) => request.paymentIds?.map(String);

/**
 * What `refund` would do now, without doing it (DESIGN §13); the panel shows it before the
 * hold. `language` is the operator's, which the answer's `Message` is worded in.
 */
export async function previewRefund(
  context: Pick<AppContext, "database" | "clock">,
  request: RefundRequest,
  language: Language,
): Promise<RefundAnswer> {
  const { database, clock } = context;
  const words = refundWords(language);
  const account = await findRefundAccount(database, request.email, request.uid);
  if (!account.ok) return refusalOf(account, words);
  const plan = await planRefund(database, account.value, transactionIdsOf(request), clock.now());
  if (!plan.ok) return refusalOf(plan, words);
  const { lines, endsAccess } = plan.value;
  return { ...answerOf(true, words.preview(lines, endsAccess), lines), endsAccess };
}

type RefundContext = Pick<AppContext, "database" | "clock" | "config" | "payments">;

type Failure = { line: RefundLine; isOutcomeUnknown: boolean; gatewayDetail?: string };

/**
 * Sends each claimed payment to the gateway in the plan's order and records each one as
 * soon as the gateway says Success; the first failure stops the run.
 *
 * Why this order keeps the customer's state whole: a refund the gateway made cannot be
 * taken back, so the charge whose refund ends access (the one that bought the period)
 * goes last, and access ends in the same transaction that records it. A failure part
 * way therefore leaves access exactly as it was, with only extra-device charges
 * returned; those are recorded (our books match the bank's), the answer lists what went
 * back and what did not, and the preview then shows just what is left, so the next
 * press finishes the refund. Until then the customer keeps the access they paid for.
 */
async function sendToGateway(context: RefundContext, plan: RefundPlan) {
  const { database, clock } = context;
  const refunded: RefundLine[] = [];
  for (const [index, line] of plan.lines.entries()) {
    let answer: RefundOutcome;
    try {
      // The refund request carries its 54-FZ receipt, for the amount going back (DESIGN §13),
      // and goes back through the provider that took the payment (DESIGN §6).
      const payment = await payments.byTransaction(database, line.transactionId);
      if (!payment) throw new Error(`payment ${line.transactionId} vanished`);
      answer = await providerOf(context.payments, payment.provider).refund(
        { transactionId: line.transactionId, method: payment.method },
        line.amount,
        await receiptOf(context, payment, line.amount),
      );
    } catch (error) {
      logger.error("refund call failed", { transactionId: line.transactionId, error: String(error) });
      return { refunded, failure: { line, isOutcomeUnknown: true } };
    }
    if (!answer.isRefunded) {
      const failure = { line, isOutcomeUnknown: false, gatewayDetail: answer.reason || undefined };
      return { refunded, failure };
    }
    const taken = answer;
    const isLast = index === plan.lines.length - 1;
    await database.transaction(async () => {
      const now = clock.now();
      // The gateway's Refund notification may have recorded it first (and taken its slot).
      const before = await refunds.byTransaction(database, line.transactionId);
      await refunds.recordRefunded(database, line.paymentId, now);
      await noteRefundProgress(database, line.paymentId, taken);
      if (before?.status === "completed") await takeRefundedSlot(database, before, now);
      const subscription = plan.subscription && (await subscriptions.byId(database, plan.subscription.id));
      if (
        isLast &&
        plan.endsAccess &&
        (subscription?.status === "ACTIVE" || subscription?.status === "CANCELED")
      )
        await subscriptions.expire(database, subscription.id, now, now);
    });
    refunded.push(line);
  }
  return { refunded, failure: undefined as Failure | undefined };
}

/**
 * Operator refund (DESIGN §13): the account by uid, the payments of the current period
 * (or exactly the ones an administrator names), each through the gateway, access ended,
 * the inviter's referral discount recomputed (it is derived from the invitees' status,
 * so it drops the moment access ends) and one audit entry with what went back. The answer's
 * `Message` is in `language`, the operator's.
 */
export async function refundCustomer(
  context: RefundContext,
  request: RefundRequest,
  operator: { id: number; ip: string | null; language: Language },
): Promise<RefundAnswer> {
  const { database, clock } = context;
  const words = refundWords(operator.language);
  const account = await findRefundAccount(database, request.email, request.uid);
  if (!account.ok) return refusalOf(account, words);
  const claim = randomToken(16);
  // Choosing and claiming happen in one transaction: a second press running at once sees
  // the claims and refuses, so no payment is ever sent to the gateway twice.
  const claimed = await database.transaction(async () => {
    const now = clock.now();
    const plan = await planRefund(database, account.value, transactionIdsOf(request), now);
    if (!plan.ok) return plan;
    for (const line of plan.value.lines)
      if ((await refunds.claim(database, line.paymentId, claim, now, now - staleClaimMs)) !== 1)
        throw new Error(`payment ${line.paymentId} could not be claimed`);
    return plan;
  });
  if (!claimed.ok) return refusalOf(claimed, words);
  const plan = claimed.value;
  const inviterBefore = await referralDiscountOfInviter(database, plan.user.id, clock.now());
  const { refunded, failure } = await sendToGateway(context, plan);
  const unsent = plan.lines.filter((line) => !refunded.includes(line));
  await database.transaction(async () => {
    for (const line of unsent)
      if (!(failure?.isOutcomeUnknown && line === failure.line))
        await refunds.release(database, line.paymentId, claim);
    if (refunded.length > 0) {
      const inviterAfter = await referralDiscountOfInviter(database, plan.user.id, clock.now());
      await recordRefundAudit(
        database,
        {
          plan,
          refunded,
          failure,
          inviterBefore,
          inviterAfter,
          operatorId: operator.id,
          ip: operator.ip,
        },
        clock.now(),
      );
      // Access ends with the period's charge, which goes last: only a run that sent it all ends it.
      const accessEnded = plan.endsAccess && refunded.length === plan.lines.length;
      await queueRefundMade(database, plan.user.id, refundTold(refunded, claim, accessEnded), clock.now());
    }
  });
  if (!failure)
    return {
      ...answerOf(true, words.done(refunded, plan.endsAccess), refunded),
      endsAccess: plan.endsAccess,
    };
  return failureAnswer(plan, { refunded, unsent, failure }, words);
}

/** What the customer is told went back in this run: one message per run, named by its claim. */
function refundTold(refunded: RefundLine[], claim: string, accessEnded: boolean) {
  const currency = refunded[0]?.currency ?? "RUB";
  return {
    total: { amount: totalOf(refunded), currency },
    payments: refunded.length,
    eventKey: `panel:${claim}`,
    methods: refunded.map((line) => line.method),
    accessEnded,
  };
}

function failureAnswer(
  plan: RefundPlan,
  run: { refunded: RefundLine[]; unsent: RefundLine[]; failure: Failure },
  words: RefundWords,
): RefundAnswer {
  const { refunded, unsent, failure } = run;
  return {
    ...answerOf(false, words.stopped(failure, refunded, plan.endsAccess), refunded),
    currency: failure.line.currency,
    gatewayFailure: {
      transactionId: failure.line.transactionId,
      refused: !failure.isOutcomeUnknown,
      ...(failure.gatewayDetail ? { detail: failure.gatewayDetail } : {}),
    },
    endsAccess: false,
    notRefunded: unsent.map((line) => ({
      ...answeredPayment(line),
      reason: words.notRefunded(line === failure.line ? failure : undefined),
    })),
  };
}
