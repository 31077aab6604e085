import type { Database } from "../../../db/database";
import { analytics } from "../../../db/queries/analytics";
import { loginThrottle } from "../../../db/queries/login-throttle";
import { reserveAttempt } from "../../platform/attempt-limit";
import { AppError } from "../../platform/errors";
import { eventLimit, eventNames, isEventName } from "./model";

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
    "too_many_events",
  );
  if (!isEventName(name))
    throw new AppError("unknown_event", { name: name.slice(0, 64), names: eventNames.join(", ") });
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
  await loginThrottle.deleteEventWindowsBefore(database, now - eventLimit.windowMs);
}
