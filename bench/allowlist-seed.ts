import { randomBytes, randomUUID } from "node:crypto";
import { createNode } from "../bff/modules/access/nodes/node-keys";
import { openDatabase } from "../bff/platform/database";
import { dayMs } from "../core/calendar";

export type SeededAccess = {
  /** The allow-list's newest version once seeded: what a node holding everything reports. */
  newestVersion: number;
  /** A few seeded credentials, to try against the real core. */
  sampleCredentials: string[];
  /** NODE_KEYs, by node name, as `npm run operator -- node <name>` would print them. */
  nodeKeys: Map<string, string>;
};

// Many rows a statement, many statements a transaction: a round trip or a commit (with
// synchronous=FULL, an fsync) per row would time the disk, not the product.
const rowsPerInsert = 500;
const rowsPerTransaction = 20_000;

const valuesOf = (count: number, row: string) => Array.from({ length: count }, () => row).join(", ");

/**
 * `count` paying customers, each ACTIVE for another 30 days with one device in use: a
 * credential (UUID), an opaque node tag and a link token, unique as the product makes them.
 * The database is created and migrated by the product's own openDatabase; the access log
 * is filled by its triggers, as any other write fills it. The nodes are made with the
 * product's createNode before the server holds the file (it opens it exclusively).
 */
export async function seedAccess(path: string, count: number, nodeNames: string[]): Promise<SeededAccess> {
  const database = await openDatabase(path);
  const now = Date.now();
  const periodEnd = now + 30 * dayMs;
  const credentials: string[] = [];
  const insertBatch = async (first: number, size: number) => {
    const ids = Array.from({ length: size }, (_, offset) => first + offset + 1);
    await database.run(
      `INSERT INTO users (id, provider_id, uid, email, currency, created_at) VALUES ${valuesOf(size, "(?, 'google.com', ?, ?, 'RUB', ?)")}`,
      ids.flatMap((id) => [id, `bench-${id}`, `customer${id}@example.com`, now]),
    );
    await database.run(
      `INSERT INTO subscriptions (user_id, status, tariff_months, trial_days, currency, first_payment, period_price,
         first_payment_paid, start_date, end_date, next_charge_at, created_at, updated_at)
       VALUES ${valuesOf(size, "(?, 'ACTIVE', 1, 7, 'RUB', 100, 29900, 1, ?, ?, ?, ?, ?)")}`,
      ids.flatMap((id) => [id, now, periodEnd, periodEnd, now, now]),
    );
    const devices = ids.map((id) => ({ id, credential: randomUUID() }));
    credentials.push(...devices.map((device) => device.credential));
    await database.run(
      `INSERT INTO devices (user_id, device_id, device_name, platform, is_active, created_at, first_activation_at,
         credential, node_tag, sub_token)
       VALUES ${valuesOf(size, "(?, ?, 'Phone', 'android', 1, ?, ?, ?, ?, ?)")}`,
      devices.flatMap((device) => [
        device.id,
        `bench-device-${device.id}`,
        now,
        now,
        device.credential,
        `k${randomBytes(10).toString("hex")}`,
        randomBytes(24).toString("base64url"),
      ]),
    );
  };
  for (let start = 0; start < count; start += rowsPerTransaction) {
    const end = Math.min(count, start + rowsPerTransaction);
    await database.transaction(async () => {
      for (let first = start; first < end; first += rowsPerInsert)
        await insertBatch(first, Math.min(rowsPerInsert, end - first));
    });
  }
  const nodeKeys = new Map<string, string>();
  for (const name of nodeNames) nodeKeys.set(name, await createNode(database, name, now));
  const newestVersion =
    (await database.get<{ newest: number }>("SELECT MAX(version) AS newest FROM access_changes"))?.newest ??
    0;
  await database.close();
  const sampleCredentials = [credentials[0], credentials[Math.floor(count / 2)], credentials.at(-1)].filter(
    (credential): credential is string => credential !== undefined,
  );
  return { newestVersion, sampleCredentials, nodeKeys };
}
