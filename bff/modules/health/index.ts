import { Elysia, t } from "elysia";
import { liveness } from "../../../db/queries/liveness";
import type { AppContext } from "../../context";

export function healthModule({ database, config, clock }: AppContext) {
  return new Elysia({ prefix: "/health", tags: ["health"] }).get(
    "",
    async () => {
      await liveness.ping(database);
      return { status: "ok" as const, mode: config.mode, time: new Date(clock.now()).toISOString() };
    },
    {
      detail: { summary: "Liveness and database check" },
      response: {
        200: t.Object({
          status: t.Literal("ok"),
          mode: t.Union([t.Literal("demo"), t.Literal("production")]),
          time: t.String(),
        }),
      },
    },
  );
}
