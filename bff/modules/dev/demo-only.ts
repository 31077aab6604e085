import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";

/**
 * Demo endpoints keep their route types (so the islands' client knows them) but in
 * production they answer exactly like an endpoint that does not exist, and are left
 * out of the API documentation.
 */
export function demoOnly<const Prefix extends string>(context: Pick<AppContext, "config">, prefix: Prefix) {
  const isDemo = context.config.mode === "demo";
  return new Elysia({ prefix, tags: ["demo"], detail: { hide: !isDemo } }).onBeforeHandle(
    { as: "local" },
    () => {
      if (!isDemo) throw new AppError("not_found");
    },
  );
}

/** The demo identity provider, which exists only in demo mode. */
export function requireDemo(context: Pick<AppContext, "identity">) {
  const demo = context.identity.demo;
  if (!demo) throw new AppError("not_found");
  return demo;
}
