import { Elysia, t } from "elysia";
import type { AppContext } from "../../../context";
import { customerErrors, customerIdentity, errorResponse } from "../../../platform/schemas";
import { customerAuth } from "../../session/customer-auth";
import { devicesPart } from "./model";
import { addDeviceSlot } from "./slot-purchase";

/** POST /api/profile/addDevice: the cabinet's purchase of one more device slot (DESIGN §5). */
export function deviceSlotRoutes(context: AppContext) {
  return new Elysia({ prefix: "/profile", tags: ["cabinet"] })
    .use(customerAuth(context))
    .post(
      "/addDevice",
      ({ customer, request, body }) =>
        addDeviceSlot(context, customer, context.clientAddress(request), body.amount),
      {
        customer: true,
        body: t.Object({
          ...customerIdentity,
          amount: t.Optional(
            t.Number({
              minimum: 0,
              maximum: 1_000_000,
              description:
                "the charge the screen stated (the shop's deviceCharge.amount): charged exactly, or refused with slot_price_changed",
            }),
          ),
        }),
        response: {
          200: t.Object({ success: t.Literal(true), charged: t.Number(), ...devicesPart }),
          ...customerErrors,
          409: errorResponse,
        },
        detail: {
          summary:
            "Buy one more device slot: charged pro rata now with the saved card, then monthly with renewals",
        },
      },
    );
}
