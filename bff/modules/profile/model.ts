import { t } from "elysia";
import { customerErrors, customerIdentity, errorResponse } from "../../platform/schemas";
import { devicesPart } from "../access/devices/model";
import { card } from "../payments/model";
import { subscriptionStatus } from "../subscriptions/model";

/** The cabinet's answer (also the bench's, which measures the framework's own cost). */
export const cabinet = t.Object({
  success: t.Literal(true),
  userInfo: t.Object({
    expirationDate: t.Nullable(t.String()),
    subscriptionIsActive: t.Boolean(),
    subscriptionStatus,
    nextTransactionDate: t.Nullable(t.String()),
    amount: t.Nullable(t.Number()),
    /** Beyond the spec: when the customer's last subscription ended, if one did. */
    endedAt: t.Nullable(t.String()),
  }),
  ...devicesPart,
  card,
});
export const cabinetResponses = { 200: cabinet, ...customerErrors };

export const deleteBody = t.Object({ ...customerIdentity, confirm: t.Literal(true) });
export const deletedResponses = {
  200: t.Object({ success: t.Literal(true), deletedAt: t.String() }),
  ...customerErrors,
  409: errorResponse,
};
