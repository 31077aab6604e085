import { audit } from "../../../db/queries/operators";
import { type PaymentRow, payments } from "../../../db/queries/payments";
import { subscriptions } from "../../../db/queries/subscriptions";
import { users } from "../../../db/queries/users";
import { statement } from "../../../db/statements";
import type { AppContext } from "../../platform/context";
import { logger } from "../../platform/logger";
import { receiptOf } from "../payments/receipt";

export type RefundAnswer = { Success: boolean; Message: string };

/**
 * Operator refund (DESIGN §6): the latest completed, unrefunded payment goes back
 * through the gateway, access ends at once (the inviter's referral discount follows,
 * as it counts only invitees with access), and it is audited. A second refund finds
 * nothing to refund and says so.
 */
export async function refundCustomer(
  context: AppContext,
  email: string,
  uid: string | undefined,
  operatorId: number,
  ip: string | null,
): Promise<RefundAnswer> {
  const { database, clock } = context;
  const user = users.byEmail(database, email);
  if (!user || (uid && uid !== user.uid))
    return { Success: false, Message: "No customer with this e-mail (and uid)." };
  const payment = statement<PaymentRow, [number]>(
    database,
    "SELECT * FROM payments WHERE user_id = ? AND status = 'completed' AND amount > 0 AND transaction_id IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT 1",
  ).get(user.id);
  if (!payment?.transaction_id)
    return { Success: false, Message: "There is no payment to refund for this customer." };
  let answer: Awaited<ReturnType<typeof context.payments.gateway.refund>>;
  try {
    answer = await context.payments.gateway.refund(
      payment.transaction_id,
      payment.amount / 100,
      receiptOf(context, payment),
    );
  } catch (error) {
    logger.error("refund call failed", { invoiceId: payment.invoice_id, error: String(error) });
    return {
      Success: false,
      Message: "The payment gateway did not answer; nothing was refunded. Try again later.",
    };
  }
  if (!answer.Success)
    return {
      Success: false,
      Message: `The gateway refused the refund: ${answer.Message ?? "no reason given"}.`,
    };
  const now = clock.now();
  database
    .transaction(() => {
      payments.markRefunded(database, payment.id, payment.amount, now);
      const subscription = subscriptions.current(database, user.id);
      if (subscription && subscription.status !== "EXPIRED" && subscription.status !== "NOT_ACTIVE") {
        subscriptions.expire(database, subscription.id, now, now);
      }
      audit.record(
        database,
        {
          operatorId,
          action: "refund",
          targetUserId: user.id,
          details: {
            invoiceId: payment.invoice_id,
            amount: payment.amount / 100,
            currency: payment.currency,
          },
          ipAddress: ip,
        },
        now,
      );
    })
    .immediate();
  return {
    Success: true,
    Message: `Refunded ${payment.amount / 100} ${payment.currency}; access ended now. The money returns within up to 60 days.`,
  };
}
