import type { Database } from "bun:sqlite";
import { analytics } from "../../../db/queries/analytics";
import { reserveAttempt } from "../../platform/attempt-limit";
import { AppError } from "../../platform/errors";
import { eventLimit, eventNames, isEventName } from "./model";

const tooMany = (minutes: number) =>
  `Too many events from this address; try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;

/**
 * Counts one event on the UTC day of `now` (the billing clock, so a test clock moves the day).
 * Every request from the address is counted against the limit, valid or not, before the name
 * is looked at: a flood of bad names costs the same as a flood of good ones.
 */
export function countEvent(database: Database, name: string, address: string, now: number): void {
  reserveAttempt(
    database,
    [{ key: `events:address:${address}`, limit: eventLimit.perAddress, windowMs: eventLimit.windowMs }],
    now,
    tooMany,
  );
  if (!isEventName(name))
    throw new AppError(
      "BAD_REQUEST",
      `Unknown event name "${name.slice(0, 64)}"; send one of ${eventNames.join(", ")}.`,
    );
  analytics.count(database, name, now);
}
