import { t } from "elysia";
import { analytics, utcDay } from "../../../db/queries/analytics";
import type { AppContext } from "../../context";
import { demoOnly } from "../../platform/demo-only";
import { errorResponse } from "../../platform/schemas";

const isoDay = t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "UTC date, YYYY-MM-DD" });

/**
 * DEMO: the daily counts as the later dashboard will read them, so a browser check can see
 * that an event sent from a page really landed. Without dates: today (billing clock) only.
 */
export function devEventCountsModule(context: Pick<AppContext, "database" | "clock" | "config">) {
  return demoOnly(context, "/dev").get(
    "/events",
    ({ query }) => {
      const today = utcDay(context.clock.now());
      return analytics.daily(context.database, query.from ?? today, query.to ?? query.from ?? today);
    },
    {
      query: t.Object({ from: t.Optional(isoDay), to: t.Optional(isoDay) }),
      response: {
        200: t.Array(t.Object({ day: t.String(), name: t.String(), count: t.Number() })),
        400: errorResponse,
      },
      detail: { summary: "DEMO: first-party event counts per UTC day and name" },
    },
  );
}
