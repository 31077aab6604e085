import { toCurrencyUnits } from "../../../../core/money";
import { payments } from "../../../../db/queries/payments";
import { refunds } from "../../../../db/queries/refunds";
import { subscriptions } from "../../../../db/queries/subscriptions";
import type { AppContext } from "../../../context";
import { logger } from "../../../platform/logger";
import { randomToken } from "../../../platform/random";
import { queueRefundMade } from "../../mail/events";
import { receiptOf } from "../receipt";
import { recordRefundAudit, referralDiscountOfInviter } from "./refund-audit";
import { amountText, answerOf, paymentView, type RefundAnswer, refusalOf, totalOf } from "./refund-model";
import { findRefundAccount, planRefund, type RefundLine, type RefundPlan, staleClaimMs } from "./refund-plan";

export type RefundRequest = { email: string; uid?: string; paymentIds?: (string | number)[] };

const transactionIdsOf = (request: RefundRequest) => request.paymentIds?.map(String);

/** What `refund` would do now, without doing it (DESIGN §13); the panel shows it before the hold. */
export async function previewRefund(
  context: Pick<AppContext, "database" | "clock">,
  request: RefundRequest,
): Promise<RefundAnswer> {
  const { database, clock } = context;
  const account = await findRefundAccount(database, request.email, request.uid);
  if (!account.ok) return refusalOf(account);
  const plan = await planRefund(database, account.value, transactionIdsOf(request), clock.now());
  if (!plan.ok) return refusalOf(plan);
  const { lines, endsAccess } = plan.value;
  const effect = endsAccess ? "and ends access at once" : "and keeps access";
  return {
    ...answerOf(
      true,
      `A refund now returns ${amountText(lines)} ${effect}. Nothing has been done yet.`,
      lines,
    ),
    endsAccess,
  };
}

type RefundContext = Pick<AppContext, "database" | "clock" | "config" | "payments">;

type Failure = { line: RefundLine; reason: string; isOutcomeUnknown: boolean; gatewayDetail?: string };

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
    let answer: Awaited<ReturnType<typeof context.payments.gateway.refund>>;
    try {
      // The refund request carries its 54-FZ receipt, for the amount going back (DESIGN §13).
      const payment = await payments.byTransaction(database, line.transactionId);
      if (!payment) throw new Error(`payment ${line.transactionId} vanished`);
      answer = await context.payments.gateway.refund(
        line.transactionId,
        toCurrencyUnits(line.amount),
        await receiptOf(context, payment, line.amount),
      );
    } catch (error) {
      logger.error("refund call failed", { transactionId: line.transactionId, error: String(error) });
      return { refunded, failure: { line, reason: "the gateway did not answer", isOutcomeUnknown: true } };
    }
    if (!answer.Success) {
      const reason = `the gateway refused it: ${answer.Message ?? "no reason given"}`;
      const failure = { line, reason, isOutcomeUnknown: false, gatewayDetail: answer.Message ?? undefined };
      return { refunded, failure };
    }
    const isLast = index === plan.lines.length - 1;
    await database.transaction(async () => {
      const now = clock.now();
      await refunds.recordRefunded(database, line.paymentId, now);
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
 * so it drops the moment access ends) and one audit entry with what went back.
 */
export async function refundCustomer(
  context: RefundContext,
  request: RefundRequest,
  operatorId: number,
  ip: string | null,
): Promise<RefundAnswer> {
  const { database, clock } = context;
  const account = await findRefundAccount(database, request.email, request.uid);
  if (!account.ok) return refusalOf(account);
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
  if (!claimed.ok) return refusalOf(claimed);
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
        { plan, refunded, failure, inviterBefore, inviterAfter, operatorId, ip },
        clock.now(),
      );
      await queueRefundMade(database, plan.user.id, refundTold(refunded, claim), clock.now());
    }
  });
  if (!failure) {
    const effect = plan.endsAccess ? "access ended now" : "access is unchanged";
    return {
      ...answerOf(
        true,
        `Refunded ${amountText(refunded)}; ${effect}. The money returns to the card within up to 60 days.`,
        refunded,
      ),
      endsAccess: plan.endsAccess,
    };
  }
  return failureAnswer(plan, refunded, unsent, failure);
}

/** What the customer is told went back in this run: one message per run, named by its claim. */
function refundTold(refunded: RefundLine[], claim: string) {
  const currency = refunded[0]?.currency ?? "RUB";
  return {
    total: { amount: totalOf(refunded), currency },
    payments: refunded.length,
    eventKey: `panel:${claim}`,
  };
}

function failureAnswer(
  plan: RefundPlan,
  refunded: RefundLine[],
  unsent: RefundLine[],
  failure: Failure,
): RefundAnswer {
  const first = `Payment ${failure.line.transactionId} was not refunded: ${failure.reason}.`;
  const unknown = failure.isOutcomeUnknown
    ? " The gateway may still refund it and will then tell us; it is held for 10 minutes so it cannot be sent twice."
    : "";
  const done =
    refunded.length > 0
      ? ` Refunded before that: ${amountText(refunded)}.${plan.endsAccess ? " Access is kept until the rest is refunded too." : ""} Press again to refund the rest.`
      : " Nothing was refunded and nothing changed.";
  return {
    ...answerOf(false, `${first}${unknown}${done}`, refunded),
    currency: failure.line.currency,
    gatewayFailure: {
      transactionId: failure.line.transactionId,
      refused: !failure.isOutcomeUnknown,
      ...(failure.gatewayDetail ? { detail: failure.gatewayDetail } : {}),
    },
    endsAccess: false,
    notRefunded: unsent.map((line) => ({
      ...paymentView(line),
      reason: line === failure.line ? failure.reason : "not sent after the failure",
    })),
  };
}
