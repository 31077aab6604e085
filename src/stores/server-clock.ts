import { atom } from "nanostores";
import { api } from "../lib/api-client";

/**
 * How far the server's clock is ahead of this browser's, in milliseconds. The server
 * starts the trial and takes the charges by its own clock, so the dates the purchase
 * screens promise are counted from it: a phone whose clock is off (or the demo's test
 * clock moved forward) must not show a wrong charge date.
 */
export const $serverClockOffset = atom(0);

let asked: Promise<void> | undefined;

/** Asks the server for its time once per page; without an answer the browser's clock stands in. */
export function syncServerClock(): Promise<void> {
  asked ??= api.health
    .get()
    .then(({ data }) => {
      const serverTime = data ? Date.parse(data.time) : Number.NaN;
      if (Number.isFinite(serverTime)) $serverClockOffset.set(serverTime - Date.now());
    })
    .catch((error: unknown) => console.error("server clock unavailable", error));
  return asked;
}

export const serverNow = () => Date.now() + $serverClockOffset.get();
