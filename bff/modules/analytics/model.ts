import { t } from "elysia";

/** The first-party events of DESIGN §16 (the same names `src/lib/analytics.ts` sends). */
export const eventNames = ["go_support", "purchase_started", "purchase_completed"] as const;
export type EventName = (typeof eventNames)[number];

export const isEventName = (name: string): name is EventName =>
  (eventNames as readonly string[]).includes(name);

export const eventBody = t.Object({
  name: t.String({ maxLength: 64, description: `one of ${eventNames.join(", ")}` }),
});

export const eventCounted = t.Object({ success: t.Literal(true) });

/**
 * Floods (DESIGN §12 spirit): a person makes a handful of these a day, so 60 a minute from one
 * address is far past any real use while still never refusing a shared office or carrier NAT.
 */
export const eventLimit = { perAddress: 60, windowMs: 60_000 } as const;
