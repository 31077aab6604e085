import { t } from "elysia";
import { mailDelivery } from "../../../db/queries/mail-outbox";
import type { AppContext } from "../../context";
import { demoOnly } from "../../platform/demo-only";
import { errorResponse } from "../../platform/schemas";
import { outboxMessage, outboxMessageOf } from "../mail/view";

/** Without an address: the newest this many; for one address, up to the larger bound. */
const latestCount = 100;
const perAddressCount = 1000;

/**
 * The outbox as the demo shows it (DESIGN §11, §14): every queued message, rendered as
 * its reader sees it, with its delivery state; also when SMTP_URL sends them for real.
 */
export function devMailModule(context: Pick<AppContext, "database" | "config">) {
  return demoOnly(context, "/dev").get(
    "/mail",
    async ({ query }) => {
      const to = query.to?.trim() || undefined;
      const rows = await mailDelivery.latest(context.database, to, to ? perAddressCount : latestCount);
      return Promise.all(rows.map((row) => outboxMessageOf(context.config, row)));
    },
    {
      query: t.Object({
        to: t.Optional(t.String({ maxLength: 320, description: "recipient, in any letter case" })),
      }),
      response: { 200: t.Array(outboxMessage), 400: errorResponse },
      detail: {
        summary: "DEMO: messages to customers, newest first (to one address, or the latest 100)",
      },
    },
  );
}
