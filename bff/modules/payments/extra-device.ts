import { payments } from "../../../db/queries/payments";
import { subscriptions } from "../../../db/queries/subscriptions";
import type { UserRow } from "../../../db/queries/users";
import { defaultPrices } from "../../../src/content/prices";
import { dayMs } from "../../platform/calendar";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { devicesOf } from "../profile/service";
import { accountIdOf } from "./orders";
import { buildReceipt } from "./receipt";
import { chargeSavedCard, settleCharge } from "./saved-card";

/**
 * What one more device slot costs for the rest of the paid period: the monthly slot
 * price per day (÷ 30) for the days left, in whole currency units, at least one.
 * Renewals then include the slot at its full monthly price.
 */
export function proRataDevicePrice(monthlyPrice: number, periodEnd: number, now: number): number {
  const daysLeft = Math.max(0, (periodEnd - now) / dayMs);
  return Math.max(100, Math.round((monthlyPrice * daysLeft) / 30 / 100) * 100);
}

/** Buys an extra device slot with the saved card, now (spec: hold-to-add-device). */
export async function addDeviceSlot(context: AppContext, user: UserRow) {
  const { database, clock } = context;
  const now = clock.now();
  const subscription = subscriptions.current(database, user.id);
  if (subscription?.status !== "ACTIVE" || !subscription.end_date) {
    throw new AppError("CONFLICT", "Device slots can be added to an active subscription only.");
  }
  if (!subscription.card_token)
    throw new AppError("CONFLICT", "There is no saved card to charge; contact support.");
  const amount = proRataDevicePrice(
    defaultPrices[subscription.currency].extraDevicePerMonth,
    subscription.end_date,
    now,
  );
  // Committed before the gateway call, like every charge (DESIGN §6).
  const payment = database
    .transaction(() =>
      payments.insert(
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
        },
        now,
      ),
    )
    .immediate();
  const answer = await chargeSavedCard(
    context.payments.gateway,
    payment,
    subscription.card_token,
    buildReceipt(payment, user.email, context.config.receipts),
  );
  const settledAt = clock.now();
  const isPaid = database.transaction(() => settleCharge(database, payment, answer, settledAt)).immediate();
  if (!isPaid) {
    throw new AppError(
      "CONFLICT",
      `The card was declined (${answer.Model?.Reason ?? answer.Message ?? "no reason given"}); no slot was added.`,
    );
  }
  return { success: true as const, charged: amount / 100, ...devicesOf(database, user.id, settledAt) };
}
