import type { Database } from "../../../db/database";
import { unboundPurchases } from "./unbound-purchases";
import { searchUsers } from "./users";

/**
 * Customers whose e-mail contains `emailPart`, one page of them; beside the spec's page,
 * paid purchases not attached to any account, on its first page.
 */
export async function searchCustomers(
  database: Database,
  emailPart: string,
  page: { number: number; size: number },
) {
  const found = await searchUsers(database, emailPart, page.number, page.size);
  return {
    ...found,
    unboundPurchases: page.number === 0 ? await unboundPurchases(database, emailPart) : [],
  };
}
