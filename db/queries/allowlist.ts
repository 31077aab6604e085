import type { Database } from "../database";
import { statement } from "../database";
import { devicesBySlot, isWithinSlots, withinSlotsColumn } from "./devices";
import type { SubscriptionStatus } from "./subscriptions";

/** A device with a credential, with its owner's newest subscription (the one that decides). */
export type CredentialRow = {
  user_id: number;
  node_tag: string;
  credential: string;
  status: SubscriptionStatus;
  end_date: number | null;
  next_charge_at: number | null;
  /** Its place by age among the customer's devices in use: 1 holds the included slot. */
  slot: number | string;
  /** When the extra slots' own paid time ends (migration 0023), if before the period's. */
  slots_paid_until: number | string | null;
};

/**
 * What a credential's time left is decided by (bff/modules/access/subscription/allowlist/allowlist.ts): its owner's
 * term, and an extra slot's own paid end.
 */
export type CredentialTerm = Pick<
  CredentialRow,
  "status" | "end_date" | "next_charge_at" | "slot" | "slots_paid_until"
>;

/** Credential rows counted per term (an extra slot's own end included). */
export type TermCount = CredentialTerm & { count: number };

/** A device that ever had a tag, as it stands now, with its slot and its owner's newest subscription. */
export type DeviceState = Omit<CredentialRow, "credential" | "status" | "slot"> & {
  credential: string | null;
  /** Its place by age among its owner's devices in use; null when not in use. */
  slot: number | string | null;
  is_active: number;
  detached_at: number | null;
  status: CredentialRow["status"] | null;
  /** Whether it holds one of its owner's slots (isWithinSlots); 0 when not in use or no subscription. */
  is_within_slots: number | string;
};

/**
 * Devices in use with a credential, within their owner's slots, joined to the owner's
 * newest subscription, in one pass over the tables: 100,000 credentials are one query,
 * never a round trip per customer. Only statuses that can give access are read; the rule
 * itself (accessEndsAt) decides the rest.
 */
const credentialsInUse = `FROM (${devicesBySlot}) d
  JOIN (SELECT user_id, MAX(id) AS id FROM subscriptions GROUP BY user_id) newest ON newest.user_id = d.user_id
  JOIN subscriptions s ON s.id = newest.id
  WHERE d.credential IS NOT NULL AND d.node_tag IS NOT NULL AND ${isWithinSlots("d.slot", "s.extra_devices")}
    AND s.status IN ('ACTIVE', 'CANCELED')`;

export const allowList = {
  /** Every credential that may be on the nodes, with the term that decides how long. */
  credentials: (db: Database) =>
    statement<CredentialRow, []>(
      db,
      `SELECT d.user_id, d.node_tag, d.credential, d.slot, s.status, s.end_date, s.next_charge_at,
         s.slots_paid_until
       ${credentialsInUse}`,
    ).all(),

  /**
   * The same rows counted per subscription term, so a scrape reads a few hundred rows,
   * not a list of every credential.
   */
  termCounts: (db: Database) =>
    statement<TermCount, []>(
      db,
      `SELECT s.status, s.end_date, s.next_charge_at, MIN(d.slot) AS slot,
         CASE WHEN d.slot > 1 THEN s.slots_paid_until END AS slots_paid_until, COUNT(*) AS count ${credentialsInUse}
     GROUP BY s.status, s.end_date, s.next_charge_at, CASE WHEN d.slot > 1 THEN s.slots_paid_until END,
       CASE WHEN d.slot > 1 THEN 1 ELSE 0 END`,
    ).all(),

  /**
   * Every device that ever had a tag, of every customer with a change logged in (from, to],
   * with its slot number (devicesBySlot) and the customer's newest subscription: one query,
   * whatever the number of customers.
   */
  devicesOfChangedUsers: (db: Database, from: number, to: number) =>
    statement<DeviceState, [number, number, number, number]>(
      db,
      `SELECT d.user_id, d.node_tag, d.credential, d.is_active, d.detached_at, slots.slot,
       ${withinSlotsColumn("slots.slot", "s.extra_devices")} AS is_within_slots,
       s.status, s.end_date, s.next_charge_at, s.slots_paid_until
     FROM devices d
     LEFT JOIN (${devicesBySlot} AND user_id IN (SELECT user_id FROM access_changes WHERE version > ? AND version <= ?))
       slots ON slots.id = d.id
     LEFT JOIN subscriptions s ON s.id = (SELECT MAX(id) FROM subscriptions WHERE user_id = d.user_id)
     WHERE d.node_tag IS NOT NULL
       AND d.user_id IN (SELECT user_id FROM access_changes WHERE version > ? AND version <= ?)`,
    ).all(from, to, from, to),
};
