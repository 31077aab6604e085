import type { LimitKey } from "../../../platform/attempt-limit";

/**
 * Link changes a customer may make an hour: a new device (from the cabinet, or an app
 * activating a device id the account has not got attached), a reset link, an unlink. Each
 * one can reach every node (a core call per inbound, a socket sweep, the agent's saved
 * list), so a loop of them is load on the whole fleet; a person changes a few.
 */
export const linkChangesPerHour = 30;

export const linkChangeLimit = (userId: number): LimitKey[] => [
  { key: `access:links:${userId}`, limit: linkChangesPerHour, windowMs: 60 * 60 * 1000 },
];

/**
 * Devices an account may keep attached but not in use (an app that activated with every
 * slot taken waits for one), beyond as many as it has slots: a family's phones waiting for
 * a slot fit, a loop of made-up device ids does not grow the table.
 */
export const waitingDevicesBeyondSlots = 3;

export const waitingDeviceLimit = (slots: number) => slots + waitingDevicesBeyondSlots;
