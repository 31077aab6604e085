import type { Asset, AssetName } from "./swagger-ui-files";

/**
 * What the reference page may load: its own code and the document, from this origin,
 * each file pinned by its hash (SRI). Nothing inline, scripts or styles (Swagger UI sets
 * styles through the DOM, which the policy allows); images may be data: for the icons its
 * stylesheet carries.
 */
export const docsPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join("; ");

const assetUrl = (name: AssetName) => `/api/docs/assets/${name}`;

/** The page: no address of another host anywhere in it. */
export function docsPage(assets: Record<AssetName, Asset>): string {
  const script = (name: AssetName) =>
    `<script src="${assetUrl(name)}" integrity="${assets[name].integrity}" crossorigin="anonymous"></script>`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Kannt API</title>
    <link rel="stylesheet" href="${assetUrl("swagger-ui.css")}" integrity="${assets["swagger-ui.css"].integrity}" crossorigin="anonymous" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    ${script("swagger-ui-bundle.js")}
    ${script("start.js")}
  </body>
</html>
`;
}
