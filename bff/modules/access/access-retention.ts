import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";
import { dayMs } from "../../platform/calendar";
import { changeLog } from "./change-log";

export const accessRetention = {
  /**
   * Per-device traffic older than LOG_RETENTION_DAYS (DESIGN §16), by the product's clock
   * as the connection logs: `before` is a time, the rows hold UTC days.
   */
  deleteTraffic: (database: Database, before: number, limit: number) =>
    statement<never, [number, number]>(
      database,
      `DELETE FROM device_traffic WHERE (device_id, day, node_id) IN (
         SELECT device_id, day, node_id FROM device_traffic WHERE day < ? ORDER BY day LIMIT ?)`,
    ).run(Math.floor(before / dayMs), limit),

  /** The allow-list's change log keeps a day (wall clock); an agent further behind gets a full list. */
  pruneChanges: (database: Database, limit: number) => changeLog.prune(database, Date.now(), limit),
};
