import type { TrafficSample } from "../../../../agent/contract/node-api";
import { maxPeriodMs } from "../../../../agent/contract/node-api";
import { AppError } from "../../../platform/errors";

/** A batch gathered for less than this is judged as if it took this long: agents send every 10 s. */
const shortestPeriodMs = 10_000;
/** Bytes a link of one gigabit per second carries in one millisecond. */
const bytesPerGigabitMs = 1e9 / 8 / 1000;

/**
 * The most bytes one direction of a node's link (`gbps`) carries in a batch's period: the
 * physical bound of what one device can have moved through that node (DESIGN §8). Without a
 * period (agents before `periodMs`) the longest one is assumed. Never above 2^53 − 1, so
 * whatever passes stays an exact integer in JavaScript and in either database.
 */
export function linkBytes(gbps: number, periodMs: number | undefined): number {
  const milliseconds = Math.max(periodMs ?? maxPeriodMs, shortestPeriodMs);
  return Math.min(gbps * bytesPerGigabitMs * milliseconds, Number.MAX_SAFE_INTEGER);
}

/**
 * Refuses a batch (400, nothing stored) when a device's samples in it, added up per direction,
 * say more bytes than the link carries: a counter read wrong, or a node lying. One bad
 * sample refuses the batch, as any bad input does; the message names it.
 */
export function refuseBeyondLink(traffic: readonly TrafficSample[], gbps: number, periodMs?: number): void {
  const limit = linkBytes(gbps, periodMs);
  const totals = new Map<string, { upload: number; download: number }>();
  traffic.forEach((sample, index) => {
    const total = totals.get(sample.tag) ?? { upload: 0, download: 0 };
    totals.set(sample.tag, total);
    for (const direction of ["upload", "download"] as const) {
      total[direction] += sample[direction];
      if (total[direction] > limit)
        throw new AppError("node_traffic_beyond_link", {
          field: `traffic.${index}.${direction}`,
          tag: sample.tag,
          bytes: total[direction],
          seconds: Math.round(Math.max(periodMs ?? maxPeriodMs, shortestPeriodMs) / 1000),
          gbps,
          limit,
        });
    }
  });
}
