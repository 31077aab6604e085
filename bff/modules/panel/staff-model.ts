import { t } from "elysia";
import { rowId } from "../../platform/schemas";
import { staffMember as member, staffRole as role } from "../operators/staff";

export const staffParams = t.Object({ id: rowId });

export const staffList = t.Object({ operators: t.Array(member) });
export const newStaffBody = t.Object({
  username: t.String({ maxLength: 64 }),
  role,
  password: t.Optional(t.String({ maxLength: 256 })),
});
/** A new operator, and the password made for them (null when one was given). */
export const newStaff = t.Object({ operator: member, password: t.Nullable(t.String()) });
export const roleBody = t.Object({ role });
export const withMember = t.Object({ operator: member });
/** An operator and the new password made for them, answered once. */
export const withPassword = t.Object({ operator: member, password: t.String() });
