import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isLanguage, type Language } from "../core/languages";
import { contentSecurityPolicy, inlineScriptHashes, type PolicyConfig } from "./content-security-policy";
import { requestLanguage } from "./platform/request-language";
import { baseSecurityHeaders, type SecurityHeadersConfig } from "./security-headers";

export type StaticSiteConfig = PolicyConfig & SecurityHeadersConfig;

/** Pages prerendered once per language; an unprefixed URL gets the visitor's variant. */
const negotiatedPages = new Set(["/", "/tt", "/yt", "/offer"]);
/** The prerendered not-found page of each language (src/pages/[lang]/404.astro). */
const notFoundPage = /^\/(ru|en|zh|kk)\/404\/index\.html$/;
const compressible = /\.(html|js|mjs|css|svg|json|txt|xml|webmanifest)$/;

type StaticFile = {
  path: string;
  type: string;
  gzip?: Uint8Array<ArrayBuffer>;
  bytes?: Uint8Array<ArrayBuffer>;
  /** Pages only: their Content-Security-Policy, with the hashes of their own inline scripts. */
  policy?: string;
};

/**
 * Pages get their policy here, at start, from the very bytes that will be served: the
 * hashes then always match the build in the folder (whoever built it), no build step
 * has to write a manifest that could drift, and the configured third-party origins,
 * known only at run time, go into the same header. Astro's own CSP (a <meta> with
 * build-time sources) could not carry frame-ancestors nor run-time origins.
 */
function withPolicy(file: StaticFile, config: PolicyConfig): StaticFile {
  if (!file.path.endsWith(".html")) return file;
  const bytes = new Uint8Array(readFileSync(file.path));
  const policy = contentSecurityPolicy(config, inlineScriptHashes(new TextDecoder().decode(bytes)));
  return { ...file, bytes, policy };
}

function listFiles(root: string, config: PolicyConfig): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const file = withPolicy({ path: full, type: Bun.file(full).type }, config);
        files.set(`/${relative(root, full).split(sep).join("/")}`, file);
      }
    }
  };
  walk(root);
  return files;
}

/**
 * The one language a not-found page speaks: the path's language prefix (/kk/nothing),
 * else the visitor's saved choice (the cookie the pages keep in step with local
 * storage), else the browser's languages, else English.
 */
export function notFoundLanguage(request: Request, pathname: string): Language {
  const prefix = pathname.split("/")[1];
  return isLanguage(prefix) ? prefix : requestLanguage(request);
}

/**
 * Serves the built Astro site from memory-indexed files. Hashed assets are cached
 * for a year; pages are revalidated; text is gzipped once and kept. Every answer
 * carries the base security headers, pages also their Content-Security-Policy.
 */
export function createStaticSite(root: string, config: StaticSiteConfig) {
  const isBuilt = existsSync(join(root, "en", "index.html")) && statSync(root).isDirectory();
  const files = isBuilt ? listFiles(root, config) : new Map<string, StaticFile>();
  const securityHeaders = baseSecurityHeaders(config);

  function find(pathname: string): StaticFile | undefined {
    const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
    return (
      files.get(trimmed) ??
      files.get(`${trimmed === "/" ? "" : trimmed}/index.html`) ??
      files.get(`${trimmed}.html`)
    );
  }

  async function respond(file: StaticFile, request: Request, status: number, extra: Record<string, string>) {
    const headers: Record<string, string> = {
      ...securityHeaders,
      ...(file.policy ? { "content-security-policy": file.policy } : {}),
      "content-type": file.type,
      "cache-control": file.path.includes(`${sep}_astro${sep}`)
        ? "public, max-age=31536000, immutable"
        : "public, max-age=0, must-revalidate",
      ...extra,
    };
    const acceptsGzip = /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
    if (compressible.test(file.path) && acceptsGzip) {
      if (!file.gzip) {
        file.bytes ??= new Uint8Array(await Bun.file(file.path).arrayBuffer());
        file.gzip = Bun.gzipSync(file.bytes, { level: 9 });
      }
      headers["content-encoding"] = "gzip";
      headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
      return new Response(request.method === "HEAD" ? null : file.gzip, { status, headers });
    }
    // A page is served from the bytes its policy was computed from, even if the folder is rebuilt.
    const body = file.bytes ?? Bun.file(file.path);
    return new Response(request.method === "HEAD" ? null : body, { status, headers });
  }

  return {
    isBuilt,
    async handle(request: Request, pathname: string): Promise<Response> {
      if (!isBuilt) {
        return new Response(
          "The site is not built yet: run `npm start` (it builds first) or `npm run build`.",
          {
            status: 503,
            headers: { ...securityHeaders, "content-type": "text/plain; charset=utf-8" },
          },
        );
      }
      const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
      if (negotiatedPages.has(trimmed)) {
        const language = requestLanguage(request);
        const variant = find(`/${language}${trimmed === "/" ? "" : trimmed}`);
        if (variant) {
          return respond(variant, request, 200, {
            "content-language": language,
            vary: "Cookie, Accept-Language",
            "cache-control": "private, max-age=0, must-revalidate",
          });
        }
      }
      const file = find(pathname);
      if (file && !notFoundPage.test(`/${relative(root, file.path).split(sep).join("/")}`)) {
        return respond(file, request, 200, {});
      }
      const language = notFoundLanguage(request, pathname);
      const localized = files.get(`/${language}/404/index.html`);
      if (localized) {
        return respond(localized, request, 404, {
          "content-language": language,
          vary: "Cookie, Accept-Language",
          "cache-control": "private, max-age=0, must-revalidate",
        });
      }
      const notFound = files.get("/404.html");
      if (notFound) return respond(notFound, request, 404, {});
      return new Response("Not found", {
        status: 404,
        headers: { ...securityHeaders, "content-type": "text/plain; charset=utf-8" },
      });
    },
  };
}
