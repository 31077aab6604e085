import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { errorResponse, rowId } from "../../platform/schemas";
import { operatorAuth } from "../operators/operator-auth";
import {
  addStaff,
  changeStaffRole,
  listStaff,
  resetStaffPassword,
  setStaffDisabled,
} from "../operators/staff";

const role = t.Union([t.Literal("admin"), t.Literal("support")]);
const member = t.Object({
  id: t.Number(),
  username: t.String(),
  role,
  isDisabled: t.Boolean(),
  createdAt: t.String(),
  updatedAt: t.String(),
});
const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
};
const params = t.Object({ id: rowId });

/**
 * Staff management (DESIGN §16), administrators only, every change audited with who made
 * it and from where. A role change, a disable and a new password end the operator's
 * sign-ins at once; a password made here is in the answer once and stored only hashed.
 */
export function staffRoutes(context: AppContext) {
  const { database, clock } = context;
  const actorOf = (operator: { id: number }, request: Request) => ({
    id: operator.id,
    address: context.clientAddress(request),
  });
  return new Elysia({ prefix: "/operators" })
    .use(operatorAuth(context))
    .get("", async () => ({ operators: await listStaff(database) }), {
      operator: "admin",
      response: { 200: t.Object({ operators: t.Array(member) }), ...errors },
      detail: { summary: "Every operator, by name (administrators)" },
    })
    .post(
      "",
      ({ body, operator, request }) => addStaff(database, body, clock.now(), actorOf(operator, request)),
      {
        operator: "admin",
        body: t.Object({
          username: t.String({ maxLength: 64 }),
          role,
          password: t.Optional(t.String({ maxLength: 256 })),
        }),
        response: { 200: t.Object({ operator: member, password: t.Nullable(t.String()) }), ...errors },
        detail: {
          summary: "Create an operator (administrators); without a password one is made and answered once",
        },
      },
    )
    .post(
      "/:id/role",
      async ({ params, body, operator, request }) => ({
        operator: await changeStaffRole(
          database,
          params.id,
          body.role,
          clock.now(),
          actorOf(operator, request),
        ),
      }),
      {
        operator: "admin",
        params,
        body: t.Object({ role }),
        response: { 200: t.Object({ operator: member }), ...errors },
        detail: { summary: "Change an operator's role; their sign-ins end (administrators)" },
      },
    )
    .post(
      "/:id/disable",
      async ({ params, operator, request }) => ({
        operator: await setStaffDisabled(database, params.id, true, clock.now(), actorOf(operator, request)),
      }),
      {
        operator: "admin",
        params,
        response: { 200: t.Object({ operator: member }), ...errors },
        detail: { summary: "Disable an operator: their tokens stop at once (administrators)" },
      },
    )
    .post(
      "/:id/enable",
      async ({ params, operator, request }) => ({
        operator: await setStaffDisabled(database, params.id, false, clock.now(), actorOf(operator, request)),
      }),
      {
        operator: "admin",
        params,
        response: { 200: t.Object({ operator: member }), ...errors },
        detail: { summary: "Let a disabled operator sign in again (administrators)" },
      },
    )
    .post(
      "/:id/resetPassword",
      ({ params, operator, request }) =>
        resetStaffPassword(database, params.id, clock.now(), actorOf(operator, request)),
      {
        operator: "admin",
        params,
        response: { 200: t.Object({ operator: member, password: t.String() }), ...errors },
        detail: {
          summary: "Make a new password for an operator, answered once; their sign-ins end (administrators)",
        },
      },
    );
}
