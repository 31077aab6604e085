import type { Database } from "bun:sqlite";

export const invitations = {
  inviterOf: (db: Database, inviteeId: number) =>
    db
      .query<{ inviter_id: number }, [number]>("SELECT inviter_id FROM invitations WHERE invitee_id = ?")
      .get(inviteeId)?.inviter_id,

  insert: (db: Database, inviterId: number, inviteeId: number, now: number) =>
    db
      .query("INSERT OR IGNORE INTO invitations (inviter_id, invitee_id, created_at) VALUES (?, ?, ?)")
      .run(inviterId, inviteeId, now),

  /** Invitees whose current subscription gives access now: each is worth 25%. */
  countWithAccess: (db: Database, inviterId: number, now: number) =>
    db
      .query<{ count: number }, [number, number]>(
        `SELECT COUNT(*) AS count FROM invitations i
         JOIN subscriptions s ON s.id = (SELECT MAX(id) FROM subscriptions WHERE user_id = i.invitee_id)
         WHERE i.inviter_id = ? AND (s.status = 'ACTIVE' OR (s.status = 'CANCELED' AND s.end_date > ?))`,
      )
      .get(inviterId, now)?.count ?? 0,
};
