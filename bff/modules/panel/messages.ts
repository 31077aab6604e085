import { mailDelivery } from "../../../db/queries/mail-outbox";
import type { AppContext } from "../../context";
import { paged } from "../../platform/paging";
import { deliveryRecordOf } from "../mail/view";

/** The messages sent to one customer, newest first, with how their delivery went. */
export async function messagesOf(
  context: Pick<AppContext, "database" | "config">,
  userId: number,
  number: number,
  size: number,
) {
  const { database, config } = context;
  const rows = await mailDelivery.ofUser(database, userId, size, number * size);
  const content = await Promise.all(rows.map((row) => deliveryRecordOf(config, row)));
  return paged(content, number, size, await mailDelivery.countOfUser(database, userId));
}
