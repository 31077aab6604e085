import { Elysia } from "elysia";
import type { Config } from "./config";
import { AppError } from "./errors";

/**
 * Demo endpoints keep their route types (so the islands' client knows them) but in
 * production they answer exactly like an endpoint that does not exist, and are left
 * out of the API documentation.
 */
export function demoOnly<const Prefix extends string>(
  context: { config: Pick<Config, "mode"> },
  prefix: Prefix,
) {
  const isDemo = context.config.mode === "demo";
  return new Elysia({ prefix, tags: ["demo"], detail: { hide: !isDemo } }).onBeforeHandle(
    { as: "local" },
    () => {
      if (!isDemo) throw new AppError("not_found");
    },
  );
}
