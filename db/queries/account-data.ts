import type { Database } from "../database";
import { statement } from "../database";
import { cappedSum } from "../dialect";

/** What a customer's export (DESIGN §16) reads beyond the cabinet's own queries. */
export const accountData = {
  subscriptions: (db: Database, userId: number) =>
    statement<
      {
        id: number;
        status: string;
        tariff_months: number;
        trial_days: number;
        currency: string;
        extra_devices: number;
        start_date: number | null;
        end_date: number | null;
        next_charge_at: number | null;
        card_last_four: string | null;
        card_removed_at: number | null;
        created_at: number;
      },
      [number]
    >(
      db,
      `SELECT id, status, tariff_months, trial_days, currency, extra_devices, start_date, end_date,
              next_charge_at, card_last_four, card_removed_at, created_at
       FROM subscriptions WHERE user_id = ? ORDER BY id`,
    ).all(userId),
  /** What each payment row holds of the person and the card, beside the history's amounts. */
  paymentRecords: (db: Database, userId: number) =>
    statement<
      {
        invoice_id: string;
        created_at: number;
        ip_address: string | null;
        card_first_six: string | null;
        card_last_four: string | null;
        card_exp_date: string | null;
      },
      [number]
    >(
      db,
      `SELECT invoice_id, created_at, ip_address, card_first_six, card_last_four, card_exp_date
       FROM payments WHERE user_id = ? ORDER BY id`,
    ).all(userId),
  devices: (db: Database, userId: number) =>
    statement<
      {
        device_id: string;
        device_name: string;
        platform: string;
        is_active: number;
        created_at: number;
        first_activation_at: number | null;
        detached_at: number | null;
        hwid: string | null;
        device_os: string | null;
        device_model: string | null;
      },
      [number]
    >(
      db,
      `SELECT device_id, device_name, platform, is_active, created_at, first_activation_at, detached_at, hwid,
         device_os, device_model
       FROM devices WHERE user_id = ? ORDER BY id`,
    ).all(userId),
  /** Bytes per device and UTC day, all nodes added up (each sum capped at 2^53 − 1). */
  traffic: (db: Database, userId: number) =>
    statement<{ device_id: string; day: number; upload: number; download: number }, [number]>(
      db,
      `SELECT d.device_id, t.day, ${cappedSum(db, "t.upload")} AS upload, ${cappedSum(db, "t.download")} AS download
       FROM device_traffic t JOIN devices d ON d.id = t.device_id
       WHERE d.user_id = ? GROUP BY d.device_id, t.day ORDER BY t.day, d.device_id`,
    ).all(userId),
  connections: (db: Database, userId: number) =>
    statement<
      { server_name: string | null; connected_at: number; user_ip: string | null; success: number },
      [number]
    >(
      db,
      "SELECT server_name, connected_at, user_ip, success FROM connection_logs WHERE user_id = ? ORDER BY connected_at, id",
    ).all(userId),
  mails: (db: Database, userId: number) =>
    statement<{ kind: string; status: string; created_at: number; sent_at: number | null }, [number]>(
      db,
      "SELECT kind, status, created_at, sent_at FROM mail_outbox WHERE user_id = ? ORDER BY id",
    ).all(userId),
  invitees: async (db: Database, userId: number) =>
    (
      await statement<{ count: number }, [number]>(
        db,
        "SELECT COUNT(*) AS count FROM invitations WHERE inviter_id = ?",
      ).get(userId)
    )?.count ?? 0,
  isInvited: async (db: Database, userId: number) =>
    (await statement<{ id: number }, [number]>(db, "SELECT id FROM invitations WHERE invitee_id = ?").get(
      userId,
    )) !== undefined,
  /**
   * Charges of the saved card we sent and the bank has not answered: their outcome comes
   * whatever the customer does. An unpaid first order is not one (see closeOpenOrders).
   */
  chargesInFlight: async (db: Database, userId: number) =>
    (
      await statement<{ count: number }, [number]>(
        db,
        "SELECT COUNT(*) AS count FROM payments WHERE user_id = ? AND status = 'pending' AND kind IN ('renewal', 'device')",
      ).get(userId)
    )?.count ?? 0,
};

/** The statements of an account's deletion, run together in one transaction by the caller. */
export const accountDeletion = {
  /** Nothing more is charged, the card is gone, and access ends now. */
  endSubscriptions: (db: Database, userId: number, now: number) =>
    statement<never, [number, number, number, number, number]>(
      db,
      `UPDATE subscriptions SET status = 'EXPIRED',
         end_date = CASE WHEN end_date IS NULL OR end_date > ? THEN ? ELSE end_date END,
         next_charge_at = NULL, card_token = NULL, card_last_four = NULL,
         card_removed_at = COALESCE(card_removed_at, ?), card_removed_by = COALESCE(card_removed_by, 'customer'),
         updated_at = ?
       WHERE user_id = ?`,
    ).run(now, now, now, now, userId),
  /**
   * Orders the customer opened and never paid are closed: the bank's check of a payment
   * made for one later is refused (the account is gone), so it can never be charged.
   */
  closeOpenOrders: (db: Database, userId: number, now: number) =>
    statement<never, [number, number]>(
      db,
      `UPDATE payments SET status = 'declined', decline_reason = 'account deleted', updated_at = ?
       WHERE user_id = ? AND status = 'pending' AND kind = 'first'`,
    ).run(now, userId),
  /**
   * Payments stay for accounting; what they held of the person and the card does not.
   * One thing stays: the card's fingerprint on a trial it paid, because the trial is
   * once per card (DESIGN §13) and a new account must not get a second one with it.
   */
  stripPayments: async (db: Database, userId: number) => {
    await statement<never, [number]>(
      db,
      `UPDATE payments SET ip_address = NULL, card_token = NULL, card_last_four = NULL,
         card_first_six = NULL, card_exp_date = NULL, payer_email = NULL,
         card_fingerprint = CASE WHEN is_trial = 1 AND status IN ('completed', 'refunded')
           THEN card_fingerprint ELSE NULL END
       WHERE user_id = ?`,
    ).run(userId);
    await statement<never, [number]>(
      db,
      "UPDATE subscriptions SET card_fingerprint = NULL WHERE user_id = ?",
    ).run(userId);
  },
  deleteOwnRows: async (db: Database, userId: number) => {
    for (const sql of [
      "DELETE FROM connection_logs WHERE user_id = ?",
      // Their traffic and retired links first: they point at the devices.
      "DELETE FROM device_traffic WHERE device_id IN (SELECT id FROM devices WHERE user_id = ?)",
      "DELETE FROM retired_links WHERE device_id IN (SELECT id FROM devices WHERE user_id = ?)",
      "DELETE FROM devices WHERE user_id = ?",
      "DELETE FROM sessions WHERE user_id = ?",
      "DELETE FROM renewal_notices WHERE subscription_id IN (SELECT id FROM subscriptions WHERE user_id = ?)",
      "DELETE FROM mail_outbox WHERE user_id = ?",
    ])
      await statement<never, [number]>(db, sql).run(userId);
  },
  /** Audit entries about the customer keep what was done, not who they were (e-mail, sign-in id). */
  scrubAudit: async (db: Database, userId: number) => {
    const entries = await statement<{ id: number; details: string }, [number]>(
      db,
      "SELECT id, details FROM audit_log WHERE target_user_id = ?",
    ).all(userId);
    for (const entry of entries) {
      const details = JSON.parse(entry.details) as Record<string, unknown>;
      if (!("email" in details) && !("uid" in details)) continue;
      delete details.email;
      delete details.uid;
      await statement<never, [string, number]>(db, "UPDATE audit_log SET details = ? WHERE id = ?").run(
        JSON.stringify(details),
        entry.id,
      );
    }
  },
  anonymize: (db: Database, userId: number, now: number) =>
    statement<never, [string, string, number, number]>(
      db,
      `UPDATE users SET uid = ?, email = ?, photo_url = NULL, invitation_code = NULL, deleted_at = ?
       WHERE id = ?`,
    ).run(`deleted:${userId}`, `deleted-${userId}@deleted.invalid`, now, userId),
};
