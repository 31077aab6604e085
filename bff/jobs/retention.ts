import type { Database } from "../../db/database";
import { providerRequests } from "../../db/queries/provider-requests";
import { retention } from "../../db/queries/retention";
import type { AppContext } from "../context";
import { accessRetention } from "../modules/access/retention";
import { dayMs } from "../platform/calendar";
import { networkOf } from "../platform/client-address";

/** No attempt limit counts over more than a day; an older throttle row is dead. */
const longestLimitWindowMs = dayMs;

/**
 * How much one pass may do. Each batch is one transaction (one commit, so one fsync on
 * SQLite, instead of one per row), and each kind of row gets at most `batchesPerPass` of
 * them: a first pass over months of old data takes well under a second instead of minutes
 * of holding the database, and the passes after it (one a minute) continue where it stopped.
 */
export type RetentionLimits = { batchSize: number; batchesPerPass: number };
const defaultLimits: RetentionLimits = { batchSize: 500, batchesPerPass: 10 };

export type RetentionCounts = {
  logsDeleted: number;
  trafficDeleted: number;
  logAddressesCut: number;
  paymentAddressesCut: number;
  auditAddressesCut: number;
  sessionsPurged: number;
};

/**
 * Runs `batch` (which handles up to `batchSize` rows and says how many it did) until one
 * finds fewer, this pass's share is spent, or the server is stopping.
 */
async function inBatches(
  stopping: AbortSignal,
  limits: RetentionLimits,
  batch: (size: number) => Promise<number>,
): Promise<number> {
  let handled = 0;
  for (let round = 0; round < limits.batchesPerPass && !stopping.aborted; round++) {
    const count = await batch(limits.batchSize);
    handled += count;
    if (count < limits.batchSize) break;
  }
  return handled;
}

/** Cuts one batch of whole addresses to their network, in one transaction. */
function cutAddresses(
  database: Database,
  find: (limit: number) => Promise<{ id: number; address: string }[]>,
  store: (id: number, network: string | null) => Promise<unknown>,
): (size: number) => Promise<number> {
  return (size) =>
    database.transaction(async () => {
      const rows = await find(size);
      // Text that is no address cannot be cut; it is dropped rather than kept whole.
      for (const row of rows) await store(row.id, networkOf(row.address) ?? null);
      return rows.length;
    });
}

/**
 * Privacy retention (DESIGN §16), run by the scheduler after every renewal pass and safe to
 * run on several instances at once: connection logs, per-device traffic and retired
 * subscription links older than LOG_RETENTION_DAYS are deleted, and the allow-list's change
 * log and the ids of stored node event batches older than a day (wall clock); the addresses of connections, payments and customers' own audit entries (an
 * account deletion) older than IP_RETENTION_DAYS are cut to their network (operators'
 * entries keep theirs); expired sessions and dead throttle rows (whose keys hold addresses)
 * go, and so do provider requests kept for their idempotence keys two days after they
 * were sent (one never answered stays while its payment is undecided). The work is bounded per pass (`limits`); what is left waits for the next one. Spent
 * captchas are cleared as they are spent (captcha.ts). Times are the billing clock's, so
 * the demo's test clock moves them.
 */
export async function runRetention(
  context: Pick<AppContext, "database" | "clock" | "config" | "stopping">,
  limits: RetentionLimits = defaultLimits,
): Promise<RetentionCounts> {
  const { database, clock, config, stopping } = context;
  const now = clock.now();
  const logsBefore = now - config.logRetentionDays * dayMs;
  const addressesBefore = now - config.ipRetentionDays * dayMs;
  const batches = (batch: (size: number) => Promise<number>) => inBatches(stopping, limits, batch);
  const logsDeleted = await batches(
    async (size) => (await retention.deleteConnectionLogs(database, logsBefore, size)).changes,
  );
  // Per-device traffic is kept as long as the connection logs (DESIGN §16).
  const trafficDeleted = await batches(
    async (size) => (await accessRetention.deleteTraffic(database, logsBefore, size)).changes,
  );
  await batches(async (size) => (await accessRetention.pruneChanges(database, size)).changes);
  await batches(
    async (size) => (await accessRetention.forgetRetiredLinks(database, logsBefore, size)).changes,
  );
  await batches(async (size) => (await accessRetention.forgetEventBatches(database, size)).changes);
  // Logs older than logsBefore are deleted above (or by a later pass), not cut.
  const logAddressesCut = await batches(
    cutAddresses(
      database,
      (size) => retention.wholeConnectionAddresses(database, logsBefore, addressesBefore, size),
      (id, network) => retention.setConnectionAddress(database, id, network),
    ),
  );
  const paymentAddressesCut = await batches(
    cutAddresses(
      database,
      (size) => retention.wholePaymentAddresses(database, addressesBefore, size),
      (id, network) => retention.setPaymentAddress(database, id, network),
    ),
  );
  const auditAddressesCut = await batches(
    cutAddresses(
      database,
      (size) => retention.wholeCustomerAuditAddresses(database, addressesBefore, size),
      (id, network) => retention.setAuditAddress(database, id, network),
    ),
  );
  const sessionsPurged = await batches(
    async (size) => (await retention.deleteExpiredSessions(database, now, size)).changes,
  );
  await retention.deleteStaleThrottles(database, now - longestLimitWindowMs);
  // A provider forgets an idempotence key after 24 hours: the request kept to send it again
  // (and the e-mail in its receipt) is of no use a day after that.
  await batches(
    async (size) => (await providerRequests.forgetBefore(database, now - 2 * dayMs, size)).changes,
  );
  return {
    logsDeleted,
    trafficDeleted,
    logAddressesCut,
    paymentAddressesCut,
    auditAddressesCut,
    sessionsPurged,
  };
}
