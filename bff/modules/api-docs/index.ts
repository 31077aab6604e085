import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";
import { docsPage, docsPolicy } from "./page";
import { docsAssets, isAssetName } from "./swagger-ui-files";

const hidden = { detail: { hide: true } };

/**
 * GET /api/docs: the OpenAPI document's reference page (the document itself is
 * /api/docs/json, served by @elysiajs/openapi). In demo mode a pinned local copy of
 * Swagger UI, never a CDN's (DESIGN §12); in production only the JSON document is
 * served, so no viewer code runs on the product's origin at all.
 */
export function apiDocsModule({ config }: AppContext) {
  const notServed = () => new AppError("docs_not_served");
  return new Elysia({ prefix: "/docs" })
    .get(
      "",
      ({ set }) => {
        if (config.mode !== "demo") throw notServed();
        set.headers["content-type"] = "text/html; charset=utf-8";
        set.headers["content-security-policy"] = docsPolicy;
        set.headers["cache-control"] = "no-cache";
        return docsPage(docsAssets());
      },
      hidden,
    )
    .get(
      "/assets/:name",
      ({ params, set }) => {
        if (config.mode !== "demo") throw notServed();
        if (!isAssetName(params.name)) throw new AppError("docs_file_not_found");
        const asset = docsAssets()[params.name];
        set.headers["content-type"] = asset.contentType;
        set.headers["content-security-policy"] = docsPolicy;
        return asset.body;
      },
      hidden,
    );
}
