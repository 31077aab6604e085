import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The reference page's code, served from this product's own origin (DESIGN §12: no
 * third-party script runs here). It is the swagger-ui-dist package pinned to one exact
 * version in package.json, so what the browser runs is what the lock file names.
 */
export type AssetName = "swagger-ui-bundle.js" | "swagger-ui.css" | "start.js";
export type Asset = { body: string; contentType: string; integrity: string };

/**
 * Starts the viewer on this server's document. A file, not an inline script, so the
 * page's policy admits scripts from this origin only; the validator badge is off because
 * it would send the document's address to validator.swagger.io.
 */
const startScript = `window.ui = SwaggerUIBundle({
  url: "/api/docs/json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  queryConfigEnabled: false,
});
`;

const packageFolder = () => dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

const asset = (body: string, contentType: string): Asset => ({
  body,
  contentType,
  integrity: `sha384-${createHash("sha384").update(body).digest("base64")}`,
});

let assets: Record<AssetName, Asset> | undefined;

/** Read and hashed once, on the first visit: the server does not pay for it at start. */
export function docsAssets(): Record<AssetName, Asset> {
  if (assets) return assets;
  const folder = packageFolder();
  const file = (name: string) => readFileSync(join(folder, name), "utf8");
  assets = {
    "swagger-ui-bundle.js": asset(file("swagger-ui-bundle.js"), "text/javascript; charset=utf-8"),
    "swagger-ui.css": asset(file("swagger-ui.css"), "text/css; charset=utf-8"),
    "start.js": asset(startScript, "text/javascript; charset=utf-8"),
  };
  return assets;
}

export const isAssetName = (name: string): name is AssetName =>
  name === "swagger-ui-bundle.js" || name === "swagger-ui.css" || name === "start.js";
