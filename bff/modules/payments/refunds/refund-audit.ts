import { percentToFraction, toCurrencyUnits } from "../../../../core/money";
import type { Database } from "../../../../db/database";
import { invitations } from "../../../../db/queries/invitations";
import { audit } from "../../../../db/queries/operators";
import { subscriptions } from "../../../../db/queries/subscriptions";
import { currentDiscount } from "../../subscriptions/discount";
import { paymentView, totalOf } from "./refund-model";
import type { RefundLine, RefundPlan } from "./refund-plan";
import { recordWords } from "./refund-words";

export type InviterDiscount = { inviterId: number; referralDiscount: number } | undefined;

/** The referral discount of whoever invited this customer, as a fraction (it is derived, never stored). */
export async function referralDiscountOfInviter(
  database: Database,
  userId: number,
  now: number,
): Promise<InviterDiscount> {
  const inviterId = await invitations.inviterOf(database, userId);
  if (inviterId === undefined) return undefined;
  const discount = await currentDiscount(
    database,
    inviterId,
    await subscriptions.current(database, inviterId),
    now,
  );
  return { inviterId, referralDiscount: percentToFraction(discount.referralPercent) };
}

/**
 * One audit entry per refund run: exactly what went back, what did not and why (in English,
 * so entries read alike whoever pressed), and what it changed.
 */
export async function recordRefundAudit(
  database: Database,
  run: {
    plan: RefundPlan;
    refunded: RefundLine[];
    failure: { line: RefundLine; isOutcomeUnknown: boolean; gatewayDetail?: string } | undefined;
    inviterBefore: InviterDiscount;
    inviterAfter: InviterDiscount;
    operatorId: number;
    ip: string | null;
  },
  now: number,
): Promise<void> {
  const { plan, refunded, failure, inviterBefore, inviterAfter } = run;
  await audit.record(
    database,
    {
      operatorId: run.operatorId,
      action: "refund",
      targetUserId: plan.user.id,
      details: {
        uid: plan.user.uid,
        email: plan.user.email,
        payments: refunded.map((line) => ({ paymentId: line.paymentId, ...paymentView(line) })),
        total: toCurrencyUnits(totalOf(refunded)),
        currency: refunded[0]?.currency,
        isComplete: failure === undefined,
        hasEndedAccess: failure === undefined && plan.endsAccess,
        notRefunded: plan.lines
          .filter((line) => !refunded.includes(line))
          .map((line) => ({
            transactionId: line.transactionId,
            amount: toCurrencyUnits(line.amount),
            reason: recordWords.notRefunded(line === failure?.line ? failure : undefined),
          })),
        ...(inviterBefore && {
          inviter: {
            userId: inviterBefore.inviterId,
            referralDiscountBefore: inviterBefore.referralDiscount,
            referralDiscountAfter: inviterAfter?.referralDiscount ?? 0,
          },
        }),
      },
      ipAddress: run.ip,
    },
    now,
  );
}
