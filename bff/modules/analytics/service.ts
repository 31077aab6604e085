import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";
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
export async function countEvent(
  database: Database,
  name: string,
  address: string,
  now: number,
): Promise<void> {
  await pruneSometimes(database, now);
  await reserveAttempt(
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
  await analytics.count(database, name, now);
}

/** How many requests between two sweeps of spent flood windows. */
const pruneEvery = 500;
const sinceSweep = new WeakMap<Database, number>();

/**
 * Anyone may send events, so every address ever seen would keep a throttle row; windows that
 * ended are worth nothing and are swept now and then, not on every request.
 */
async function pruneSometimes(database: Database, now: number): Promise<void> {
  const count = (sinceSweep.get(database) ?? 0) + 1;
  sinceSweep.set(database, count % pruneEvery);
  if (count < pruneEvery) return;
  await statement(
    database,
    "DELETE FROM login_throttle WHERE throttle_key LIKE 'events:%' AND window_started_at <= ?",
  ).run(now - eventLimit.windowMs);
}
