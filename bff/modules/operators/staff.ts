import { type Static, t } from "elysia";
import type { Database } from "../../../db/database";
import { type OperatorRole, type OperatorRow, operators } from "../../../db/queries/operators";
import { AppError } from "../../platform/errors";
import { randomToken } from "../../platform/random";
import {
  type Actor,
  assertKeepsAnAdmin,
  changeAndSignOut,
  createOperator,
  setOperatorPassword,
} from "./accounts";

export const staffRole = t.Union([t.Literal("admin"), t.Literal("support")]);

/** An operator as the panel shows it: never the password hash. */
export const staffMember = t.Object({
  id: t.Number(),
  username: t.String(),
  role: staffRole,
  isDisabled: t.Boolean(),
  createdAt: t.String(),
  updatedAt: t.String(),
});
export type StaffMember = Static<typeof staffMember>;

const memberOf = (row: OperatorRow): StaffMember => ({
  id: row.id,
  username: row.username,
  role: row.role,
  isDisabled: row.is_disabled === 1,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

/** A password made for someone: 20 URL-safe characters, shown once. */
const generatedPassword = () => randomToken(15);

export async function listStaff(database: Database): Promise<StaffMember[]> {
  return (await operators.all(database)).map(memberOf);
}

async function memberById(database: Database, id: number): Promise<OperatorRow> {
  const row = await operators.byId(database, id);
  if (!row) throw new AppError("operator_not_found");
  return row;
}

/** A new operator; without a password one is made and returned, to be shown once. */
export async function addStaff(
  database: Database,
  request: { username: string; role: OperatorRole; password?: string },
  now: number,
  actor: Actor,
): Promise<{ operator: StaffMember; password: string | null }> {
  const password = request.password ?? generatedPassword();
  const id = await createOperator(database, request.username, password, request.role, now, actor);
  return { operator: memberOf(await memberById(database, id)), password: request.password ? null : password };
}

/** Another role; the operator's sign-ins end, so the new role holds at once. */
export async function changeStaffRole(
  database: Database,
  id: number,
  role: OperatorRole,
  now: number,
  actor: Actor,
): Promise<StaffMember> {
  return database.transaction(async () => {
    const target = await memberById(database, id);
    if (target.role !== role) {
      if (role === "support") await assertKeepsAnAdmin(database, target, actor, "change the role of");
      await changeAndSignOut(
        database,
        target,
        "operator.role",
        now,
        actor,
        () => operators.setRole(database, id, role, now),
        { role },
      );
    }
    return memberOf(await memberById(database, id));
  });
}

/** Disabled (their tokens stop at once) or enabled again. */
export async function setStaffDisabled(
  database: Database,
  id: number,
  isDisabled: boolean,
  now: number,
  actor: Actor,
): Promise<StaffMember> {
  // The check and the change in one transaction: two administrators disabling each other
  // at once must not both pass "another administrator remains".
  return database.transaction(async () => {
    const target = await memberById(database, id);
    if (isDisabled && !target.is_disabled) await assertKeepsAnAdmin(database, target, actor, "disable");
    if (Boolean(target.is_disabled) !== isDisabled)
      await changeAndSignOut(
        database,
        target,
        isDisabled ? "operator.disable" : "operator.enable",
        now,
        actor,
        () => operators.setDisabled(database, id, isDisabled, now),
      );
    return memberOf(await memberById(database, id));
  });
}

/** A new password, made here and returned once; every sign-in of the operator ends. */
export async function resetStaffPassword(
  database: Database,
  id: number,
  now: number,
  actor: Actor,
): Promise<{ operator: StaffMember; password: string }> {
  const target = await memberById(database, id);
  const password = generatedPassword();
  await setOperatorPassword(database, target, password, now, actor);
  return { operator: memberOf(await memberById(database, id)), password };
}
