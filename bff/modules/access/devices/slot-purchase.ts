import { formatMoney, toCurrencyUnits, toMinorUnits } from "../../../../core/money";
import type { Database } from "../../../../db/database";
import { payments } from "../../../../db/queries/payments";
import { subscriptions } from "../../../../db/queries/subscriptions";
import type { UserRow } from "../../../../db/queries/users";
import { hardDeclineCodes } from "../../../adapters/cloudpayments/notification";
import type { AppContext } from "../../../context";
import { AppError, type ErrorCode } from "../../../platform/errors";
import { logger } from "../../../platform/logger";
import { accountIdOf } from "../../payments/orders/orders";
import { providerOf } from "../../payments/providers/provider-of";
import { buildReceipt } from "../../payments/receipts/receipt";
import { chargeSavedMethod, settleCharge } from "../../payments/renewals/saved-card";
import { billingTurn, devicePurchaseHoldMs } from "../../subscriptions/billing-turn";
import { renoticeRaisedCharge } from "../../subscriptions/raised-charge-notice";
import { devicesOf } from "./devices-part";
import { slotQuote } from "./slot-quote";

/** The gateway's reason code for "not enough money on the card". */
const insufficientFundsCode = 5051;

/** The bank's refusal as a customer understands it (the gateway's own reason is a code). */
function declined(reasonCode: number | null | undefined): ErrorCode {
  if (reasonCode === insufficientFundsCode) return "card_declined_insufficient_funds";
  if (reasonCode != null && hardDeclineCodes.has(reasonCode)) return "card_declined_unusable";
  return "card_declined";
}

/**
 * The pending charge for one more slot, committed before the gateway call like every
 * charge (DESIGN §6). In the billing turn: a renewal claimed before it is seen in flight
 * (its amount could not include the slot, so the slot waits for it), and a claim after it
 * sees this purchase and leaves the renewal for the next pass (subscriptions.due).
 */
async function openSlotPurchase(
  database: Database,
  user: UserRow,
  ip: string | null,
  shownAmount: number | undefined,
  now: number,
) {
  return database.inTurn(billingTurn, async () => {
    const subscription = await subscriptions.current(database, user.id);
    if (subscription?.status !== "ACTIVE" || !subscription.end_date) {
      throw new AppError("slot_needs_active_subscription");
    }
    const cardToken = subscription.card_token;
    if (!cardToken) throw new AppError("slot_needs_saved_card");
    if (await payments.inFlight(database, subscription.id, "renewal", 0))
      throw new AppError("renewal_in_progress");
    // A slot charge still undecided (SBP autopay waits for the payer's bank): a second press
    // meanwhile would buy a second slot the customer did not ask for. One cut short by a
    // crash stops holding the next purchase once the renewal's hold would be over too.
    if (await payments.inFlight(database, subscription.id, "device", now - devicePurchaseHoldMs))
      throw new AppError("payment_pending");
    const quote = slotQuote(subscription, now);
    if (!quote) throw new AppError("slot_needs_active_subscription");
    const { amount } = quote;
    // What the screen stated is what is charged: a figure that no longer holds (the clock
    // moved on since it was shown) is refused with the new one, never charged otherwise.
    if (shownAmount !== undefined && toMinorUnits(shownAmount) !== amount)
      throw new AppError("slot_price_changed", { amount: formatMoney(amount, subscription.currency) });
    const payment = await payments.insert(
      database,
      {
        userId: user.id,
        subscriptionId: subscription.id,
        kind: "device",
        invoiceId: `device-${subscription.id}-${subscription.extra_devices + 1}-${now}`,
        accountId: accountIdOf(user.id),
        amount,
        currency: subscription.currency,
        description: "Kannt: one more device until the end of the paid period",
        // The customer asked for it: their address is kept with it, as a first payment's is.
        ipAddress: ip,
        provider: subscription.saved_provider,
        method: subscription.saved_method,
      },
      now,
    );
    return { payment, cardToken, subscriptionId: subscription.id };
  });
}

/**
 * Buys an extra device slot with the saved card, now (spec: hold-to-add-device): pro rata
 * for the rest of the period, and in every renewal from the next one on. `shownAmount` is
 * the figure the purchase screen stated (currency units, the shop's `deviceCharge`): the
 * charge is exactly that, or nothing. Bought after the next renewal's notice, the slot
 * gets a new notice stating the new amount, and that renewal waits 24 hours after it
 * (DESIGN §13(a), renoticeRaisedCharge).
 */
export async function addDeviceSlot(
  context: Pick<AppContext, "database" | "clock" | "config" | "payments">,
  user: UserRow,
  ip: string | null,
  shownAmount?: number,
) {
  const { database, clock } = context;
  const { payment, cardToken, subscriptionId } = await openSlotPurchase(
    database,
    user,
    ip,
    shownAmount,
    clock.now(),
  );
  const { amount } = payment;
  const answer = await chargeSavedMethod(
    providerOf(context.payments, payment.provider),
    payment,
    cardToken,
    buildReceipt(payment, user.email, context.config.receipts),
  );
  const settledAt = clock.now();
  // The slot and its new notice together, in the billing turn: no claim between them.
  const isPaid = await database.inTurn(billingTurn, async () => {
    const paid = await settleCharge(database, payment, answer, settledAt);
    if (paid) await renoticeRaisedCharge(context, subscriptionId, settledAt);
    return paid;
  });
  // An SBP autopay charge is decided by the payer's bank later: the slot comes with its Pay.
  if (answer.status === "pending") throw new AppError("payment_pending");
  if (!isPaid) {
    const refusal = answer.status === "declined" ? answer : undefined;
    logger.info("extra device slot declined", {
      userId: user.id,
      reasonCode: refusal?.reasonCode,
      reason: refusal?.reason,
    });
    throw new AppError(declined(refusal?.reasonCode));
  }
  return {
    success: true as const,
    charged: toCurrencyUnits(amount),
    ...(await devicesOf(database, user.id, settledAt)),
  };
}
