import type { Database } from "bun:sqlite";
import { audit, type OperatorRole, operators } from "../../../db/queries/operators";
import { AppError } from "../../platform/errors";
import { randomToken } from "../../platform/random";

export const minimumPasswordLength = 12;

/** Argon2id, Bun's implementation. */
export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: "argon2id" });

function assertPassword(password: string): void {
  if (password.length < minimumPasswordLength) {
    throw new AppError(
      "VALIDATION",
      `An operator password needs at least ${minimumPasswordLength} characters.`,
    );
  }
}

export async function createOperator(
  database: Database,
  username: string,
  password: string,
  role: OperatorRole,
  now: number,
  actorId: number | null = null,
) {
  const name = username.trim();
  if (!/^[A-Za-z0-9._@-]{3,64}$/.test(name)) {
    throw new AppError(
      "VALIDATION",
      "A username is 3 to 64 letters, digits, dots, dashes, underscores or @.",
    );
  }
  assertPassword(password);
  if (operators.byUsername(database, name))
    throw new AppError("CONFLICT", `The operator "${name}" already exists.`);
  const hash = await hashPassword(password);
  const id = operators.insert(database, name, hash, role, now);
  audit.record(
    database,
    { operatorId: actorId, action: "operator.create", details: { username: name, role } },
    now,
  );
  return id;
}

export async function resetOperatorPassword(
  database: Database,
  username: string,
  password: string,
  now: number,
  actorId: number | null = null,
) {
  const operator = operators.byUsername(database, username.trim());
  if (!operator) throw new AppError("NOT_FOUND", `There is no operator "${username}".`);
  assertPassword(password);
  operators.setPassword(database, operator.id, await hashPassword(password), now);
  database.run("UPDATE refresh_tokens SET revoked_at = ? WHERE operator_id = ? AND revoked_at IS NULL", [
    now,
    operator.id,
  ]);
  audit.record(
    database,
    { operatorId: actorId, action: "operator.reset-password", details: { username: operator.username } },
    now,
  );
}

export function disableOperator(
  database: Database,
  username: string,
  now: number,
  actorId: number | null = null,
) {
  const operator = operators.byUsername(database, username.trim());
  if (!operator) throw new AppError("NOT_FOUND", `There is no operator "${username}".`);
  operators.setDisabled(database, operator.id, true, now);
  database.run("UPDATE refresh_tokens SET revoked_at = ? WHERE operator_id = ? AND revoked_at IS NULL", [
    now,
    operator.id,
  ]);
  audit.record(
    database,
    { operatorId: actorId, action: "operator.disable", details: { username: operator.username } },
    now,
  );
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
  if (operators.count(database) > 0) return undefined;
  const name = username ?? "admin";
  const secret = password ?? randomToken(15);
  await createOperator(database, name, secret, "admin", now);
  return password ? { username: name } : { username: name, generatedPassword: secret };
}
