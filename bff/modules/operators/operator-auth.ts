import { Elysia } from "elysia";
import { operators } from "../../../db/queries/operators";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";
import { isFamilyActive, verifyAccessToken } from "./tokens";

/** The signed-in operator from the bearer token, or 401. */
export async function authenticateOperator(context: AppContext, request: Request) {
  const header = request.headers.get("authorization") ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  if (!token) throw new AppError("UNAUTHORIZED", "Sign in to the panel first.");
  const claims = await verifyAccessToken(context.config.jwtSecret, token, context.clock.now());
  const account = await operators.byId(context.database, claims.operatorId);
  if (!account || account.is_disabled)
    throw new AppError("UNAUTHORIZED", "This operator account is not active.");
  // Logout, a reused refresh token or a password reset revokes the family: its access
  // tokens stop here, not when their 15 minutes run out.
  if (!(await isFamilyActive(context.database, claims.familyId)))
    throw new AppError("UNAUTHORIZED", "This panel session was closed. Please sign in again.");
  return { ...account, familyId: claims.familyId };
}

/**
 * Operator authentication as a macro: `{ operator: "support" }` lets any operator in,
 * `{ operator: "admin" }` only administrators. Routes receive `{ operator }`.
 */
export function operatorAuth(context: AppContext) {
  return new Elysia({ name: "operator-auth", seed: context.database }).macro({
    operator: (required: "support" | "admin") => ({
      async resolve({ request }) {
        const account = await authenticateOperator(context, request);
        if (required === "admin" && account.role !== "admin") {
          throw new AppError("FORBIDDEN", "Only an administrator can do this.");
        }
        return { operator: { id: account.id, username: account.username, role: account.role } };
      },
    }),
  });
}
