import { t } from "elysia";
import { rowId } from "../../platform/schemas";
import { deliveryRecord } from "../mail/view";

/** A customer named in a query parameter (`id` or `userId`). */
export const userIdQuery = rowId;

/** One page of a customer's messages with how their delivery went. */
export const messagesPage = t.Object({
  content: t.Array(deliveryRecord),
  page: t.Object({
    size: t.Number(),
    number: t.Number(),
    totalElements: t.Number(),
    totalPages: t.Number(),
  }),
});
