import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { panelChangeErrors as errors } from "../../platform/schemas";
import { actorOf, operatorAuth } from "../operators/operator-auth";
import {
  addStaff,
  changeStaffRole,
  listStaff,
  resetStaffPassword,
  setStaffDisabled,
} from "../operators/staff";
import {
  newStaff,
  newStaffBody,
  staffParams as params,
  roleBody,
  staffList,
  withMember,
  withPassword,
} from "./staff-model";

/**
 * Staff management (DESIGN §16), administrators only, every change audited with who made
 * it and from where. A role change, a disable and a new password end the operator's
 * sign-ins at once; a password made here is in the answer once and stored only hashed.
 */
export function staffRoutes(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/operators" })
    .use(operatorAuth(context))
    .get("", async () => ({ operators: await listStaff(database) }), {
      operator: "admin",
      response: { 200: staffList, ...errors },
      detail: { summary: "Every operator, by name (administrators)" },
    })
    .post(
      "",
      ({ body, operator, request }) =>
        addStaff(database, body, clock.now(), actorOf(context, operator, request)),
      {
        operator: "admin",
        body: newStaffBody,
        response: { 200: newStaff, ...errors },
        detail: {
          summary: "Create an operator (administrators); without a password one is made and answered once",
        },
      },
    )
    .use(oneOperatorRoutes(context));
}

/** /operators/:id/…: one operator's role, whether they may sign in, and a new password. */
function oneOperatorRoutes(context: AppContext) {
  const { database, clock } = context;
  const setDisabled = async (id: number, disabled: boolean, actor: ReturnType<typeof actorOf>) => ({
    operator: await setStaffDisabled(database, id, disabled, clock.now(), actor),
  });
  return new Elysia({ prefix: "/:id" })
    .use(operatorAuth(context))
    .post(
      "/role",
      async ({ params, body, operator, request }) => ({
        operator: await changeStaffRole(
          database,
          params.id,
          body.role,
          clock.now(),
          actorOf(context, operator, request),
        ),
      }),
      {
        operator: "admin",
        params,
        body: roleBody,
        response: { 200: withMember, ...errors },
        detail: { summary: "Change an operator's role; their sign-ins end (administrators)" },
      },
    )
    .post(
      "/disable",
      ({ params, operator, request }) => setDisabled(params.id, true, actorOf(context, operator, request)),
      {
        operator: "admin",
        params,
        response: { 200: withMember, ...errors },
        detail: { summary: "Disable an operator: their tokens stop at once (administrators)" },
      },
    )
    .post(
      "/enable",
      ({ params, operator, request }) => setDisabled(params.id, false, actorOf(context, operator, request)),
      {
        operator: "admin",
        params,
        response: { 200: withMember, ...errors },
        detail: { summary: "Let a disabled operator sign in again (administrators)" },
      },
    )
    .post(
      "/resetPassword",
      ({ params, operator, request }) =>
        resetStaffPassword(database, params.id, clock.now(), actorOf(context, operator, request)),
      {
        operator: "admin",
        params,
        response: { 200: withPassword, ...errors },
        detail: {
          summary: "Make a new password for an operator, answered once; their sign-ins end (administrators)",
        },
      },
    );
}
