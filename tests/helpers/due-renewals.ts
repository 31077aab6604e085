import type { Database } from "../../db/database";
import type { SubscriptionRow } from "../../db/queries/subscriptions";
import { makeTestApp } from "./app";
import { advanceDays, payingCustomers, runBilling } from "./payments";

export type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

/** Customers whose first renewal is due now, its notice sent more than 24 hours ago. */
export async function dueCustomers(count: number, prefix: string): Promise<TestApp> {
  const testApp = await makeTestApp();
  await payingCustomers(testApp.app, count, prefix);
  await runBilling(testApp.app); // the pre-charge notices (DESIGN §13(a))
  await advanceDays(testApp.app, 1.5);
  return testApp;
}

/** A subscription's row as it stands. */
export const subscriptionOf = async (database: Database, id: number) =>
  (await database.get<SubscriptionRow>("SELECT * FROM subscriptions WHERE id = ?", [id])) as SubscriptionRow;
