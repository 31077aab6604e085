import { isoTime } from "../../../../core/date-time";
import type { Language } from "../../../../core/languages";
import { hasAccess, subscriptions } from "../../../../db/queries/subscriptions";
import type { UserRow } from "../../../../db/queries/users";
import type { AppContext } from "../../../context";
import { refundRefusedTrialsNow } from "../refunds/refused-trial-refunds";
import { bindPrepaid, type PrepaidOutcome } from "./prepaid-binding";

/**
 * Attaching a purchase from the cabinet, with the session, when the customer said "Not
 * now" at sign-in (docs/money.md: a paid purchase is never lost). The same binding
 * as /api/register's `prepaidToken`, confirmed on screen the same way.
 */
export async function attachPrepaid(
  context: Pick<AppContext, "database" | "clock" | "config" | "payments">,
  user: UserRow,
  prepaidToken: string,
  language: Language,
) {
  const { database, clock } = context;
  const now = clock.now();
  const outcome: PrepaidOutcome = await database.transaction(() =>
    bindPrepaid(database, user.id, prepaidToken, language, now),
  );
  if (!outcome.bound && outcome.isRefundDue) await refundRefusedTrialsNow(context);
  const subscription = await subscriptions.current(database, user.id);
  return {
    bound: outcome.bound,
    ...(outcome.bound ? {} : { reason: outcome.reason }),
    expirationDate: isoTime(subscription?.end_date),
    subscriptionIsActive: hasAccess(subscription, clock.now()),
  };
}
