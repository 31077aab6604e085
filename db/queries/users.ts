import type { Language } from "../../core/languages";
import type { Currency } from "../../core/money";
import type { Database } from "../database";
import { statement } from "../database";

export type UserRow = {
  id: number;
  provider_id: string;
  uid: string;
  email: string;
  photo_url: string | null;
  language: Language;
  currency: Currency;
  invitation_code: string | null;
  created_at: number;
  /** When the customer deleted the account (the row stays, anonymized). */
  deleted_at: number | null;
};

export const users = {
  byId: (db: Database, id: number) =>
    statement<UserRow, [number]>(db, "SELECT * FROM users WHERE id = ?").get(id),

  byProviderUid: (db: Database, providerId: string, uid: string) =>
    statement<UserRow, [string, string]>(db, "SELECT * FROM users WHERE provider_id = ? AND uid = ?").get(
      providerId,
      uid,
    ),

  byEmail: (db: Database, email: string) =>
    statement<UserRow, [string]>(
      db,
      "SELECT * FROM users WHERE lower(email) = lower(?) ORDER BY id LIMIT 1",
    ).get(email),

  byInvitationCode: (db: Database, code: string) =>
    statement<UserRow, [string]>(db, "SELECT * FROM users WHERE invitation_code = ?").get(code),

  async insert(
    db: Database,
    user: {
      providerId: string;
      uid: string;
      email: string;
      photoUrl: string | null;
      language: Language;
      currency: Currency;
    },
    now: number,
  ): Promise<number> {
    const row = await statement<
      { id: number },
      [string, string, string, string | null, string, string, number]
    >(
      db,
      `INSERT INTO users (provider_id, uid, email, photo_url, language, currency, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(user.providerId, user.uid, user.email, user.photoUrl, user.language, user.currency, now);
    if (!row) throw new Error("user insert returned no id");
    return row.id;
  },

  updateContact: (db: Database, id: number, email: string, photoUrl: string | null) =>
    statement(
      db,
      "UPDATE users SET email = ?, photo_url = COALESCE(?, photo_url) WHERE id = ? AND (email <> ? OR photo_url IS DISTINCT FROM ?)",
    ).run(email, photoUrl, id, email, photoUrl),

  setInvitationCode: (db: Database, id: number, code: string) =>
    statement(db, "UPDATE users SET invitation_code = ? WHERE id = ? AND invitation_code IS NULL").run(
      code,
      id,
    ),
};
