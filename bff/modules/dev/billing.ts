import { t } from "elysia";
import { runRenewals } from "../../jobs/renewals";
import { dayMs } from "../../platform/calendar";
import { OffsetClock } from "../../platform/clock";
import { saveClockOffset } from "../../platform/clock-offset";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { demoOnly } from "./demo-only";

/** The test clock and a manual scheduler pass (DESIGN §11). */
export function billingControlModule(context: AppContext) {
  return demoOnly(context, "/dev")
    .post(
      "/clock",
      ({ body }) => {
        if (!(context.clock instanceof OffsetClock))
          throw new AppError("CONFLICT", "This server's clock cannot be moved.");
        context.clock.advance(Math.round(body.advanceDays * dayMs));
        saveClockOffset(context.database, context.clock.offset);
        return { now: new Date(context.clock.now()).toISOString(), offsetDays: context.clock.offset / dayMs };
      },
      {
        body: t.Object({ advanceDays: t.Number({ minimum: 0, maximum: 3660 }) }),
        detail: { summary: "DEMO: move the billing clock forward" },
      },
    )
    .post("/billing/run", () => runRenewals(context), {
      detail: { summary: "DEMO: run one pass of the renewal scheduler now" },
    });
}
