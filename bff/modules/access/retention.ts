import type { Database } from "../../../db/database";
import { accessChanges } from "../../../db/queries/access-changes";
import { vpnNodes } from "../../../db/queries/nodes";
import { retiredLinks } from "../../../db/queries/retired-links";
import { dayMs } from "../../platform/calendar";

export const accessRetention = {
  /**
   * Per-device traffic older than LOG_RETENTION_DAYS (DESIGN §16), by the product's clock
   * as the connection logs: `before` is a time, the rows hold UTC days.
   */
  deleteTraffic: (database: Database, before: number, limit: number) =>
    vpnNodes.deleteTrafficBefore(database, Math.floor(before / dayMs), limit),

  /**
   * The ids of stored event batches keep a day (wall clock): an agent sends a batch again
   * within seconds of a lost answer, and keeps it only while the product is away.
   */
  forgetEventBatches: (database: Database, limit: number) =>
    vpnNodes.forgetEventBatchesBefore(database, Date.now() - dayMs, limit),

  /**
   * Retired subscription links are recognised as long as the connection logs are kept
   * (LOG_RETENTION_DAYS): an app still fetching one after that gets a plain 404.
   */
  forgetRetiredLinks: (database: Database, before: number, limit: number) =>
    retiredLinks.pruneBefore(database, before, limit),

  /** The allow-list's change log keeps a day (wall clock); an agent further behind gets a full list. */
  pruneChanges: (database: Database, limit: number) =>
    accessChanges.prune(database, Date.now() - dayMs, limit),
};
