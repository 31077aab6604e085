import type { TranslationKey } from "../../../../core/i18n";
import type { Database } from "../../../../db/database";
import { devices, type TokenDevice } from "../../../../db/queries/devices";
import { payments } from "../../../../db/queries/payments";
import type { SubscriptionRow } from "../../../../db/queries/subscriptions";
import { accessEndsAt } from "./allowlist/access-rule";
import { credentialEndsAt } from "./allowlist/allowlist";

/**
 * What a subscription link gives now (DESIGN §8 "The subscription answer"): the servers
 * ("open"), or a placeholder whose words say inside the app why not. "replaced" is a link
 * the customer made the device a new one for: its apps read where to get it, instead of a
 * 404 after which they keep trying the servers they last had with a key the nodes refuse.
 */
export type LinkStanding = "open" | "ended" | "paymentFailed" | "beyondSlots" | "removed" | "replaced";

export type ClosedStanding = Exclude<LinkStanding, "open">;

/** The placeholder's words (`{{url}}` is the cabinet), in the customer's language. */
export const placeholderKeys: Record<ClosedStanding, TranslationKey> = {
  ended: "appSubscription.ended",
  paymentFailed: "appSubscription.paymentFailed",
  beyondSlots: "appSubscription.beyondSlots",
  removed: "appSubscription.removed",
  replaced: "appSubscription.replaced",
};

/** A device in use with a credential, of an account not deleted: what the nodes may know. */
const hasCredential = (device: TokenDevice) =>
  device.is_active === 1 &&
  device.detached_at === null &&
  device.deleted_at === null &&
  device.credential !== null;

/**
 * Where the device a live token names stands: unlinked is "removed"; without access by the
 * nodes' rule, "paymentFailed" when it ended on a declined renewal, else "ended"; a device
 * not in use, or beyond its owner's slots by the slot rule the allow-list asks
 * (devices.slotStanding → isWithinSlots, then credentialEndsAt for an extra slot whose paid
 * time is over), is "beyondSlots"; otherwise "open".
 */
export async function standingOf(
  database: Database,
  device: TokenDevice,
  subscription: SubscriptionRow | undefined,
  now: number,
): Promise<LinkStanding> {
  if (device.detached_at !== null || device.deleted_at !== null) return "removed";
  if (accessEndsAt(subscription, now) === null) {
    const isDeclined =
      subscription !== undefined && (await payments.endedOnDecline(database, subscription.id));
    return isDeclined ? "paymentFailed" : "ended";
  }
  if (!hasCredential(device) || subscription === undefined) return "beyondSlots";
  const slot = await devices.slotStanding(database, device.user_id, device.id);
  if (slot === undefined || Number(slot.is_within_slots) !== 1) return "beyondSlots";
  // The nodes' own clock rule (credentialEndsAt): an extra slot whose paid time is over
  // (DESIGN §13) holds no credential there any more, whatever the slot count says.
  const endsAt = credentialEndsAt({ ...subscription, slot: slot.slot }, now);
  return endsAt !== null && endsAt > now ? "open" : "beyondSlots";
}

/** A renewal was declined and is being tried again: access is kept, and the app says so. */
export const isRetryingPayment = (subscription: SubscriptionRow | undefined) =>
  subscription?.status === "ACTIVE" && subscription.dunning_attempts > 0;
