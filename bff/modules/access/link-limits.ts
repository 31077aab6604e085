import type { LimitKey } from "../../platform/attempt-limit";

/**
 * Link changes a customer may make an hour: a new device, a reset link, an unlink. Each
 * one reaches every node (a core call per inbound, a socket sweep, the agent's saved
 * list), so a loop of them is load on the whole fleet; a person changes a few.
 */
export const linkChangesPerHour = 30;

export const linkChangeLimit = (userId: number): LimitKey[] => [
  { key: `access:links:${userId}`, limit: linkChangesPerHour, windowMs: 60 * 60 * 1000 },
];
