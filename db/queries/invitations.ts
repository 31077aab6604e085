import type { Database } from "../database";
import { statement } from "../database";
import { isAmong } from "../dialect";

export const invitations = {
  inviterOf: async (db: Database, inviteeId: number) =>
    (
      await statement<{ inviter_id: number }, [number]>(
        db,
        "SELECT inviter_id FROM invitations WHERE invitee_id = ?",
      ).get(inviteeId)
    )?.inviter_id,

  insert: (db: Database, inviterId: number, inviteeId: number, now: number) =>
    statement(
      db,
      "INSERT INTO invitations (inviter_id, invitee_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
    ).run(inviterId, inviteeId, now),

  /**
   * Each invitee with what decides whether it counts toward the inviter's referral
   * discount, and how much (DESIGN §13): the status and the months per period of its newest
   * subscription (a tariff changes only before the first payment, so these are the months
   * its current paid period covers), whether it has paid a charge other than the 1-unit
   * trial (and not refunded it), and whether it paid with a card the inviter also paid
   * with. CAST keeps SQLite from re-preparing this query on every bind, which matters
   * because every cabinet call computes the discount.
   */
  standing: (db: Database, inviterId: number) =>
    statement<InviteeStanding, [number]>(
      db,
      `SELECT ${standingColumns}
       FROM invitations i JOIN users u ON u.id = i.invitee_id
       WHERE i.inviter_id = CAST(? AS BIGINT) ORDER BY i.created_at DESC, i.invitee_id DESC`,
    ).all(inviterId),

  /** `standing` of many inviters in one statement (a renewal batch's prices), each row naming its inviter. */
  standingOfInviters: (db: Database, inviterIds: readonly number[]) =>
    statement<InviteeStanding & { inviterId: number }, [string]>(
      db,
      `SELECT i.inviter_id AS "inviterId", ${standingColumns}
       FROM invitations i JOIN users u ON u.id = i.invitee_id
       WHERE ${isAmong(db, "i.inviter_id")}`,
    ).all(JSON.stringify(inviterIds)),
};

/** What `standing` says of each invitee `i` (joined with its user `u`). */
const standingColumns = `i.invitee_id AS "inviteeId", u.email AS email, i.created_at AS "invitedAt",
         (SELECT s.status FROM subscriptions s WHERE s.user_id = i.invitee_id ORDER BY s.id DESC LIMIT 1) AS status,
         (SELECT s.tariff_months FROM subscriptions s WHERE s.user_id = i.invitee_id ORDER BY s.id DESC LIMIT 1)
           AS "periodMonths",
         EXISTS (SELECT 1 FROM payments p WHERE p.user_id = i.invitee_id AND p.status = 'completed'
           AND p.kind IN ('first', 'renewal') AND p.is_trial = 0 AND p.amount > 0) AS "hasPaidCharge",
         EXISTS (SELECT 1 FROM payments p JOIN payments q ON q.user_id = i.inviter_id
           AND ((p.card_fingerprint IS NOT NULL AND q.card_fingerprint = p.card_fingerprint)
             OR (p.card_token IS NOT NULL AND q.card_token = p.card_token))
           WHERE p.user_id = i.invitee_id) AS "usesInviterCard"`;

export type InviteeStanding = {
  inviteeId: number;
  email: string;
  invitedAt: number;
  status: string | null;
  periodMonths: number | null;
  hasPaidCharge: 0 | 1;
  usesInviterCard: 0 | 1;
};
