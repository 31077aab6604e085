import type { Language } from "../../../core/languages";
import { mailDelivery } from "../../../db/queries/mail-outbox";
import type { AppContext } from "../../context";
import { paged } from "../../platform/paging";
import { deliveryRecordOf } from "../mail/view";

/**
 * The messages sent to one customer, newest first, with how their delivery went; each
 * subject also worded in the operator's language, so a kk panel never shows a Russian date.
 */
export async function messagesOf(
  context: Pick<AppContext, "database" | "config">,
  userId: number,
  page: { number: number; size: number },
  readerLanguage: Language,
) {
  const { database, config } = context;
  const { number, size } = page;
  const rows = await mailDelivery.ofUser(database, userId, size, number * size);
  const content = rows.map((row) => deliveryRecordOf(config, row, readerLanguage));
  return paged(content, number, size, await mailDelivery.countOfUser(database, userId));
}
