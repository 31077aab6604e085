import type { YooKassaPayment } from "../../../adapters/yookassa/types";
import type { ChargeOutcome } from "./provider";

/**
 * YooKassa's cancellation reasons in the product's reason codes, which are CloudPayments'
 * (settlement.ts reads them: 5041, 5043 and 5054 are hard declines, never retried; the
 * order and slot screens word the rest). The reason itself is kept beside the code.
 * A saved method that is gone (permission_revoked: the payer withdrew the autopay
 * permission) is CloudPayments' revoked SBP binding, 6001: dunning tries it again, as it
 * does there.
 */
const reasonCodes: Readonly<Record<string, number>> = {
  insufficient_funds: 5051,
  card_expired: 5054,
  invalid_card_number: 5014,
  invalid_csc: 5082,
  call_issuer: 5001,
  general_decline: 5005,
  fraud_suspected: 5034,
  payment_method_restricted: 5057,
  payment_method_limit_exceeded: 5065,
  issuer_unavailable: 5091,
  "3d_secure_failed": 5206,
  internal_timeout: 5096,
  permission_revoked: 6001,
};

export const reasonCodeOf = (reason: string | undefined): number | null =>
  reason === undefined ? null : (reasonCodes[reason] ?? null);

/**
 * A payment's state as the interface names it (DESIGN §6): succeeded is paid; pending and
 * waiting_for_capture are pending (a payer still to confirm, a bank still to decide);
 * canceled is declined, with YooKassa's reason (expired_on_confirmation, permission_revoked…).
 */
export function outcomeOf(payment: YooKassaPayment): ChargeOutcome {
  if (payment.status === "succeeded") return { status: "paid", transactionId: payment.id };
  if (payment.status === "canceled") {
    const reason = payment.cancellation_details?.reason;
    return {
      status: "declined",
      transactionId: payment.id,
      reasonCode: reasonCodeOf(reason),
      reason: reason ?? null,
    };
  }
  return { status: "pending", transactionId: payment.id };
}
