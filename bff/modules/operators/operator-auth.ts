import { Elysia } from "elysia";
import { operators } from "../../../db/queries/operators";
import { hasSecondFactor } from "../../../db/queries/second-factor";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";
import { isSecondFactorRequired } from "./second-factor/factor-rules";
import { isFamilyActive, verifyAccessToken } from "./tokens";

type OperatorAuthContext = Pick<AppContext, "database" | "clock" | "config">;

async function lookUpOperator(context: OperatorAuthContext, request: Request) {
  const header = request.headers.get("authorization") ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  if (!token) throw new AppError("panel_sign_in_required");
  const claims = await verifyAccessToken(context.config.jwtSecret, token, context.clock.now());
  const account = await operators.byId(context.database, claims.operatorId);
  if (!account || account.is_disabled) throw new AppError("operator_inactive");
  // Logout, a reused refresh token or a password reset revokes the family: its access
  // tokens stop here, not when their 15 minutes run out.
  if (!(await isFamilyActive(context.database, claims.familyId))) throw new AppError("panel_session_closed");
  // Asked on every call, not carried in the token: a factor added in another tab, or
  // reset from the CLI, counts at once.
  const mustEnrol =
    isSecondFactorRequired(account.role, context.config) &&
    !(await hasSecondFactor(context.database, account.id));
  return { ...account, familyId: claims.familyId, mustEnrol };
}

/**
 * The panel asks who is calling before the body is validated (no token is 401 whatever the
 * body), and the macro asks again to hand routes the operator: both share one look-up.
 */
const operatorOfRequest = new WeakMap<Request, ReturnType<typeof lookUpOperator>>();

/** The signed-in operator from the bearer token, or 401; looked up once per request. */
export function authenticateOperator(context: OperatorAuthContext, request: Request) {
  let operator = operatorOfRequest.get(request);
  if (!operator) {
    operator = lookUpOperator(context, request);
    operatorOfRequest.set(request, operator);
  }
  return operator;
}

/**
 * Operator authentication as a macro: `{ operator: "support" }` lets any operator in,
 * `{ operator: "admin" }` only administrators. Routes receive `{ operator }`.
 */
export function operatorAuth(context: OperatorAuthContext) {
  return new Elysia({ name: "operator-auth", seed: context.database }).macro({
    operator: (required: "support" | "admin") => ({
      async resolve({ request }) {
        const account = await authenticateOperator(context, request);
        if (required === "admin" && account.role !== "admin") {
          throw new AppError("admin_only");
        }
        return { operator: { id: account.id, username: account.username, role: account.role } };
      },
    }),
  });
}

/** The operator making a change and the address they call from, as the audit log records them. */
export function actorOf(
  context: Pick<AppContext, "clientAddress">,
  operator: { id: number },
  request: Request,
) {
  return { id: operator.id, address: context.clientAddress(request) };
}
