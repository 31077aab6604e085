import { AppError } from "../../platform/errors";

/**
 * Argon2id costs tens of milliseconds of a core and a chunk of memory per check; with
 * two cores, more than two at once only queues work an attacker asked for. Logins past
 * that are turned away at once (429) instead of waiting.
 */
export const maxConcurrentPasswordChecks = 2;
let running = 0;

export async function withPasswordCheckSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= maxConcurrentPasswordChecks)
    throw new AppError("sign_in_busy", {}, { retryAfterSeconds: 2 });
  running++;
  try {
    return await work();
  } finally {
    running--;
  }
}

/** Whether a slot is free now, to refuse early before anything is counted. */
export const hasFreePasswordCheckSlot = () => running < maxConcurrentPasswordChecks;
