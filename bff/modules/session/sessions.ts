import { timingSafeEqual } from "node:crypto";
import type { Database } from "../../../db/database";
import { sessions } from "../../../db/queries/sessions";
import { randomToken } from "../../platform/random";

/**
 * Customer sessions after Lucia's design: the cookie holds `id.secret`, the database
 * only a SHA-256 of the secret, compared in constant time. 30 days, sliding: a
 * session used in its second half is extended to a fresh 30 days.
 */
export const sessionCookieName = "kannt_session";
export const sessionLifetimeMs = 30 * 24 * 60 * 60 * 1000;

const hash = (secret: string) => new Uint8Array(new Bun.CryptoHasher("sha256").update(secret).digest());

export type ValidSession = { id: string; userId: number; expiresAt: number; isRenewed: boolean };

export async function createSession(
  database: Database,
  userId: number,
  now: number,
): Promise<{ token: string; expiresAt: number }> {
  const id = randomToken(15);
  const secret = randomToken(32);
  const expiresAt = now + sessionLifetimeMs;
  await sessions.insert(database, id, userId, hash(secret), now, expiresAt);
  return { token: `${id}.${secret}`, expiresAt };
}

export async function validateSession(
  database: Database,
  token: string,
  now: number,
): Promise<ValidSession | undefined> {
  const [id, secret, extra] = token.split(".");
  if (!id || !secret || extra !== undefined) return undefined;
  const row = await sessions.byId(database, id);
  if (!row) return undefined;
  const expected = new Uint8Array(row.secret_hash);
  const actual = hash(secret);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
  if (row.expires_at <= now) {
    await sessions.delete(database, id);
    return undefined;
  }
  if (row.expires_at - now < sessionLifetimeMs / 2) {
    const expiresAt = now + sessionLifetimeMs;
    await sessions.extend(database, id, expiresAt);
    return { id, userId: row.user_id, expiresAt, isRenewed: true };
  }
  return { id, userId: row.user_id, expiresAt: row.expires_at, isRenewed: false };
}

export async function deleteSession(database: Database, token: string): Promise<void> {
  const [id] = token.split(".");
  if (id) await sessions.delete(database, id);
}
