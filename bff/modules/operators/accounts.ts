import type { Database } from "../../../db/database";
import { audit, type OperatorRole, type OperatorRow, operators } from "../../../db/queries/operators";
import { passkeys, recoveryCodes, totp } from "../../../db/queries/second-factor";
import { AppError } from "../../platform/errors";
import { randomToken } from "../../platform/random";
import { clearLoginLocks } from "./login-limits";
import { revokeOperatorSignIns } from "./tokens";

export const minimumPasswordLength = 12;

/** Who made a change, for its audit entry: an operator in the panel, or nobody (the CLI, the start). */
export type Actor = { id: number | null; address?: string | null };
const nobody: Actor = { id: null };

/** An audit entry of what `actor` did (`details` as the log keeps it), inside the caller's transaction if any. */
export const recordAction = (
  database: Database,
  actor: Actor,
  action: string,
  details: unknown,
  now: number,
) => audit.record(database, { operatorId: actor.id, action, details, ipAddress: actor.address ?? null }, now);

/** Argon2id, Bun's implementation. */
export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: "argon2id" });

function assertPassword(password: string): void {
  if (password.length < minimumPasswordLength) {
    throw new AppError("operator_password_too_short", { length: minimumPasswordLength });
  }
}

function assertUsername(name: string): void {
  if (!/^[A-Za-z0-9._@-]{3,64}$/.test(name)) {
    throw new AppError("invalid_username");
  }
}

/** The new operator's row and its audit entry; runs inside the caller's transaction. */
async function insertOperator(
  database: Database,
  name: string,
  passwordHash: string,
  role: OperatorRole,
  now: number,
  actor: Actor,
): Promise<number> {
  const id = await operators.insert(database, name, passwordHash, role, now);
  await audit.record(
    database,
    {
      operatorId: actor.id,
      action: "operator.create",
      details: { username: name, role },
      ipAddress: actor.address ?? null,
    },
    now,
  );
  return id;
}

export async function createOperator(
  database: Database,
  username: string,
  password: string,
  role: OperatorRole,
  now: number,
  actor: Actor = nobody,
) {
  const name = username.trim();
  assertUsername(name);
  assertPassword(password);
  if (await operators.byUsername(database, name)) throw new AppError("operator_exists", { name });
  // Hashed before the transaction: it takes tens of milliseconds and is no database work.
  const hash = await hashPassword(password);
  // Looked up again with the insert, in one transaction: of two creations of one name at
  // once (the CLI and the panel, two instances), one makes it and the other is refused.
  return database.transaction(async () => {
    if (await operators.byUsername(database, name)) throw new AppError("operator_exists", { name });
    return insertOperator(database, name, hash, role, now, actor);
  });
}

/** The operator of that name (any letter case), or 404. */
async function namedOperator(database: Database, username: string) {
  const operator = await operators.byUsername(database, username.trim());
  if (!operator) throw new AppError("operator_name_unknown", { name: username });
  return operator;
}

/**
 * A change to an operator that ends every sign-in it has, with its audit entry, as one
 * transaction: none of it is ever done without the rest.
 */
export function changeAndSignOut(
  database: Database,
  operator: { id: number; username: string },
  action: string,
  now: number,
  actor: Actor,
  change: () => Promise<unknown>,
  details: Record<string, unknown> = {},
): Promise<void> {
  return database.transaction(async () => {
    await change();
    await revokeOperatorSignIns(database, operator.id, now);
    await audit.record(
      database,
      {
        operatorId: actor.id,
        action,
        details: { username: operator.username, ...details },
        ipAddress: actor.address ?? null,
      },
      now,
    );
  });
}

export async function resetOperatorPassword(
  database: Database,
  username: string,
  password: string,
  now: number,
  actor: Actor = nobody,
) {
  await setOperatorPassword(database, await namedOperator(database, username), password, now, actor);
}

/** A new password, and every sign-in of the operator ended. */
export async function setOperatorPassword(
  database: Database,
  operator: { id: number; username: string },
  password: string,
  now: number,
  actor: Actor,
) {
  assertPassword(password);
  const hash = await hashPassword(password);
  await changeAndSignOut(database, operator, "operator.reset-password", now, actor, () =>
    operators.setPassword(database, operator.id, hash, now),
  );
}

/**
 * Someone must remain who can get in, from the panel or the CLI alike: nobody changes
 * their own role or disables themselves, and the last enabled administrator stays one.
 * Run it in the transaction that makes the change, so two at once cannot both pass.
 */
export async function assertKeepsAnAdmin(
  database: Database,
  target: OperatorRow,
  actor: Actor,
  what: "disable" | "change the role of",
) {
  if (target.id === actor.id)
    throw new AppError(what === "disable" ? "cannot_disable_self" : "cannot_change_own_role");
  if (
    target.role === "admin" &&
    !target.is_disabled &&
    (await operators.otherActiveAdmins(database, target.id)) === 0
  )
    throw new AppError(what === "disable" ? "last_admin_disable" : "last_admin_demote", {
      name: target.username,
    });
}

/** The CLI's disable: the panel's guard, checked in the transaction that disables. */
export async function disableOperator(
  database: Database,
  username: string,
  now: number,
  actor: Actor = nobody,
) {
  await database.transaction(async () => {
    const operator = await namedOperator(database, username);
    await assertKeepsAnAdmin(database, operator, actor, "disable");
    await changeAndSignOut(database, operator, "operator.disable", now, actor, () =>
      operators.setDisabled(database, operator.id, true, now),
    );
  });
}

/**
 * Lifts a sign-in lock on an operator (the CLI's `unlock`): the wrong passwords counted
 * for the account, from every address, are forgotten, with an audit entry. The counts per
 * address over all accounts stay: they are about the address, not the account.
 */
export async function unlockOperator(
  database: Database,
  username: string,
  now: number,
  actor: Actor = nobody,
) {
  await database.transaction(async () => {
    const operator = await namedOperator(database, username);
    await clearLoginLocks(database, operator.username);
    await audit.record(
      database,
      {
        operatorId: actor.id,
        action: "operator.unlock",
        details: { username: operator.username },
        ipAddress: actor.address ?? null,
      },
      now,
    );
  });
}

/**
 * Clears an operator's second factors (the CLI's `reset-factors`, for a lost phone or
 * passkey): passkeys, the authenticator app and recovery codes go, every sign-in of theirs
 * ends, and it is audited. Someone who must have a factor then enrols one after their next
 * password sign-in, as a new administrator does.
 */
export async function resetOperatorFactors(
  database: Database,
  username: string,
  now: number,
  actor: Actor = nobody,
) {
  await database.transaction(async () => {
    const operator = await namedOperator(database, username);
    await changeAndSignOut(database, operator, "operator.reset-factors", now, actor, async () => {
      await passkeys.deleteOfOperator(database, operator.id);
      await totp.delete(database, operator.id);
      await recoveryCodes.deleteOfOperator(database, operator.id);
    });
  });
}

/**
 * The first operator: from ADMIN_USERNAME/ADMIN_PASSWORD, or "admin" with a generated
 * password printed once, when the database has no operator yet.
 */
export async function ensureFirstOperator(
  database: Database,
  username: string | undefined,
  password: string | undefined,
  now: number,
) {
  if ((await operators.count(database)) > 0) return undefined;
  const name = username ?? "admin";
  const secret = password ?? randomToken(15);
  assertUsername(name);
  assertPassword(secret);
  const hash = await hashPassword(secret);
  // Counted again with the insert, in one transaction: of several instances starting at
  // once on one database, one creates the first operator and the others find it.
  const isCreated = await database.transaction(async () => {
    if ((await operators.count(database)) > 0) return false;
    await insertOperator(database, name, hash, "admin", now, nobody);
    return true;
  });
  if (!isCreated) return undefined;
  return password ? { username: name } : { username: name, generatedPassword: secret };
}
