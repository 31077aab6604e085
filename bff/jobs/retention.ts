import { retention } from "../../db/queries/retention";
import type { AppContext } from "../context";
import { dayMs } from "../platform/calendar";
import { networkOf } from "../platform/client-address";

/** No attempt limit counts over more than a day; an older throttle row is dead. */
const longestLimitWindowMs = dayMs;
const batch = 500;

export type RetentionCounts = {
  logsDeleted: number;
  logAddressesCut: number;
  paymentAddressesCut: number;
  sessionsPurged: number;
};

/** Cuts the addresses older than `before` of one table to their network, a batch at a time. */
async function cutAddresses(
  find: (before: number, limit: number) => Promise<{ id: number; address: string }[]>,
  store: (id: number, network: string | null) => Promise<unknown>,
  before: number,
): Promise<number> {
  let cut = 0;
  for (;;) {
    const rows = await find(before, batch);
    // Text that is no address cannot be cut; it is dropped rather than kept whole.
    for (const row of rows) await store(row.id, networkOf(row.address) ?? null);
    cut += rows.length;
    if (rows.length < batch) return cut;
  }
}

/**
 * Privacy retention (DESIGN §16), run by the scheduler with every renewal pass and safe to
 * run on several instances at once: connection logs older than LOG_RETENTION_DAYS are
 * deleted; the addresses of connections and payments older than IP_RETENTION_DAYS are cut
 * to their network; expired sessions and dead throttle rows (whose keys hold addresses)
 * go. Spent captchas are cleared as they are spent (captcha.ts). Times are the billing clock's, so the demo's test clock moves them.
 */
export async function runRetention(context: AppContext): Promise<RetentionCounts> {
  const { database, clock, config } = context;
  const now = clock.now();
  const logsBefore = now - config.logRetentionDays * dayMs;
  const addressesBefore = now - config.ipRetentionDays * dayMs;
  const { changes: logsDeleted } = await retention.deleteConnectionLogs(database, logsBefore);
  const logAddressesCut = await cutAddresses(
    (before, limit) => retention.wholeConnectionAddresses(database, before, limit),
    (id, network) => retention.setConnectionAddress(database, id, network),
    addressesBefore,
  );
  const paymentAddressesCut = await cutAddresses(
    (before, limit) => retention.wholePaymentAddresses(database, before, limit),
    (id, network) => retention.setPaymentAddress(database, id, network),
    addressesBefore,
  );
  const { changes: sessionsPurged } = await retention.deleteExpiredSessions(database, now);
  await retention.deleteStaleThrottles(database, now - longestLimitWindowMs);
  return { logsDeleted, logAddressesCut, paymentAddressesCut, sessionsPurged };
}
