import { t } from "elysia";
import { accessChanges } from "../../../db/queries/access-changes";
import type { AppContext } from "../../context";
import { type RenewalContext, runRenewals } from "../../jobs/renewals";
import { dayMs } from "../../platform/calendar";
import { OffsetClock } from "../../platform/clock";
import { advanceClockOffset } from "../../platform/clock-offset";
import { demoOnly } from "../../platform/demo-only";
import { AppError } from "../../platform/errors";

/** The test clock and a manual scheduler pass (DESIGN §11). */
export function billingControlModule(context: RenewalContext & Pick<AppContext, "leaseClock">) {
  return demoOnly(context, "/dev")
    .post(
      "/clock",
      async ({ body }) => {
        if (!(context.clock instanceof OffsetClock)) throw new AppError("clock_fixed");
        const clock = context.clock;
        // With the log row that sends every node a full list: each remaining time is new.
        const offset = await context.database.transaction(async () => {
          const moved = await advanceClockOffset(context.database, Math.round(body.advanceDays * dayMs));
          await accessChanges.everythingChanged(context.database);
          return moved;
        });
        clock.catchUp(offset);
        return { now: new Date(clock.now()).toISOString(), offsetDays: clock.offset / dayMs };
      },
      {
        body: t.Object({ advanceDays: t.Number({ minimum: 0, maximum: 3660 }) }),
        detail: { summary: "DEMO: move the billing clock forward" },
      },
    )
    .post("/billing/run", () => runRenewals(context, { leaseClock: context.leaseClock }), {
      detail: { summary: "DEMO: run one pass of the renewal scheduler now" },
    });
}
