import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { documentsModule } from "./modules/documents";
import { healthModule } from "./modules/health";
import type { AppContext } from "./platform/context";
import { errorHandler } from "./platform/error-handler";

/** Composes the feature modules under /api. The islands' typed client is built from `App`. */
export function createApp(context: AppContext) {
  return new Elysia({ prefix: "/api" })
    .use(errorHandler)
    .use(
      openapi({
        path: "/docs",
        // The offer PDF has a dot in its path; document it anyway.
        exclude: { staticFile: false },
        documentation: {
          info: {
            title: "Kannt API",
            version: "1.0.0",
            description: "Customer, operator and payment calls of the Kannt subscription service.",
          },
        },
      }),
    )
    .use(healthModule(context))
    .use(documentsModule());
}

export type App = ReturnType<typeof createApp>;
