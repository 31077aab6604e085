import { accountData, accountDeletion } from "../../../db/queries/account-data";
import { audit } from "../../../db/queries/operators";
import type { UserRow } from "../../../db/queries/users";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";
import { billingTurn } from "../subscriptions/billing-turn";

/**
 * A customer's own deletion of their account (DESIGN §16), all in one transaction:
 * nothing more is charged and access ends now; the saved card, devices and their access
 * keys, connection logs, sessions and mail are deleted; the account row keeps only what
 * the payments kept for accounting point at (amounts, dates, receipts: no address, no
 * card), under an e-mail and id that name nobody. A new sign-in with the same Google or
 * Yandex account makes a new, empty account. Refused while a charge of the saved card
 * awaits the bank's answer, whose outcome would otherwise land on a deleted account; an
 * order opened and never paid does not hold it up: it is closed, and the bank's check of a
 * late payment for it is refused (webhooks.ts).
 */
export async function deleteAccount(
  context: Pick<AppContext, "database" | "clock">,
  user: UserRow,
  address: string,
): Promise<{ success: true; deletedAt: string }> {
  const { database, clock } = context;
  const now = clock.now();
  // In the billing turn, as renewal claims: a claim committed just before is seen as a
  // charge in flight, and a claim just after finds nothing left to charge.
  await database.inTurn(billingTurn, async () => {
    if ((await accountData.chargesInFlight(database, user.id)) > 0) throw new AppError("payment_pending");
    await accountDeletion.closeOpenOrders(database, user.id, now);
    await accountDeletion.endSubscriptions(database, user.id, now);
    await accountDeletion.stripPayments(database, user.id);
    await accountDeletion.deleteOwnRows(database, user.id);
    await accountDeletion.scrubAudit(database, user.id);
    await accountDeletion.anonymize(database, user.id, now);
    // Who asked, so support can answer "where did this customer go"; the address is cut
    // by retention like any other after IP_RETENTION_DAYS.
    await audit.record(
      database,
      { operatorId: null, action: "customer.delete", targetUserId: user.id, ipAddress: address },
      now,
    );
  });
  return { success: true, deletedAt: new Date(now).toISOString() };
}
