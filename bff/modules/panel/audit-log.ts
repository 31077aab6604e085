import type { Database } from "../../../db/database";
import { audit } from "../../../db/queries/operators";
import { paged } from "../../platform/paging";

/** One page of the operators' audit log, newest first: who did what, when, from where and on whom. */
export async function auditLogPage(database: Database, page: { number: number; size: number }) {
  const { number, size } = page;
  const total = await audit.count(database);
  const rows = await audit.page(database, size, number * size);
  return paged(
    rows.map((row) => ({
      id: row.id,
      operator: row.username,
      action: row.action,
      targetUserId: row.target_user_id,
      targetEmail: row.target_email,
      details: JSON.parse(row.details) as unknown,
      ipAddress: row.ip_address,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    number,
    size,
    total,
  );
}
