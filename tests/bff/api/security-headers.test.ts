import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { addBaseSecurityHeaders } from "../../../bff/security-headers";
import { createStaticSite, type StaticSiteConfig } from "../../../bff/static-site";
import { noThirdParties } from "../../helpers/static-site";

// Inline scripts shaped like Astro's output: the language correction, an island loader,
// an inline module script, and one with CRLF line ends (hashed after normalisation).
const correction = `(function(p){try{var s=localStorage.getItem("i18nextLng");if(s&&s!==p)location.replace("/"+s+"/")}catch(e){}})("en")`;
const islandLoader = `(()=>{var e=async t=>{await(await t())()};(self.Astro||(self.Astro={})).only=e;})();`;
const moduleScript = "document.querySelector(`a[data-back]`)?.addEventListener(`click`,()=>history.back());";
const crlfScript = 'if (a > b) {\r\n  console.log("a > b");\r\n}';

function fixtureSite(): string {
  const root = mkdtempSync(join(tmpdir(), "kannt-csp-"));
  mkdirSync(join(root, "en"));
  mkdirSync(join(root, "_astro"));
  writeFileSync(
    join(root, "en", "index.html"),
    `<!DOCTYPE html><html lang="en"><head><script>${correction}</script><style>body{margin:0}</style></head>` +
      `<body><script>${islandLoader}</script><script type="module" src="/_astro/site.js"></script>` +
      `<script type="module" data-note="a > b">${moduleScript}</script><script>${crlfScript}</script></body></html>`,
  );
  writeFileSync(join(root, "_astro", "site.js"), "console.log(1)");
  writeFileSync(
    join(root, "404.html"),
    `<html><body><script>${islandLoader}</script>not found</body></html>`,
  );
  return root;
}

const none = noThirdParties;
const allThirdParties: StaticSiteConfig = {
  publicUrl: "https://kannt.example",
  googleClientId: "1234.apps.googleusercontent.com",
  yandexClientId: "yandex-client",
  recaptchaSiteKey: "recaptcha-site-key",
  cloudPaymentsApiUrl: "https://api.cloudpayments.ru",
};

/** What each setting admits, and every host it may bring into the policy. */
const thirdParties: Record<string, { value: string; sources: Record<string, string[]>; hosts: string[] }> = {
  googleClientId: {
    value: "1234.apps.googleusercontent.com",
    sources: {
      "script-src": ["https://accounts.google.com/gsi/client"],
      "frame-src": ["https://accounts.google.com/gsi/"],
      "connect-src": ["https://accounts.google.com/gsi/"],
    },
    hosts: ["https://accounts.google.com", "https://*.googleusercontent.com"],
  },
  yandexClientId: {
    value: "yandex-client",
    sources: { "connect-src": ["https://login.yandex.ru"] },
    hosts: ["https://login.yandex.ru", "https://avatars.yandex.net"],
  },
  recaptchaSiteKey: {
    value: "recaptcha-site-key",
    sources: {
      "script-src": ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"],
      "frame-src": ["https://www.google.com/recaptcha/"],
    },
    hosts: ["https://www.google.com", "https://www.gstatic.com", "https://recaptcha.google.com"],
  },
  cloudPaymentsApiUrl: {
    value: "https://api.cloudpayments.ru",
    sources: {
      "script-src": ["https://widget.cloudpayments.ru"],
      "frame-src": ["https://widget.cloudpayments.ru"],
      "connect-src": ["https://widget.cloudpayments.ru", "https://api.cloudpayments.ru"],
    },
    hosts: ["https://widget.cloudpayments.ru", "https://api.cloudpayments.ru"],
  },
};

const root = fixtureSite();
const get = (site: ReturnType<typeof createStaticSite>, path: string) =>
  site.handle(new Request(`http://localhost${path}`), path);

/** Directive name → its sources. */
function directives(policy: string | null): Map<string, string[]> {
  const entries = (policy ?? "").split(";").map((part) => part.trim().split(/\s+/));
  return new Map(entries.map(([name = "", ...sources]) => [name, sources]));
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return `'sha256-${Buffer.from(digest).toString("base64")}'`;
}

function expectBaseHeaders(response: Response) {
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  expect(response.headers.get("x-frame-options")).toBe("DENY");
}

describe("page security headers", () => {
  test("a page's policy admits its own inline scripts by hash and never 'unsafe-inline' scripts", async () => {
    const response = await get(createStaticSite(root, none), "/en/");
    const policy = directives(response.headers.get("content-security-policy"));
    const expected = await Promise.all(
      [correction, islandLoader, moduleScript, crlfScript.replace(/\r\n/g, "\n")].map(sha256),
    );
    expect(policy.get("script-src")).toEqual(["'self'", ...expected]);
    expect(policy.get("script-src")).not.toContain("'unsafe-inline'");
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(policy.get("img-src")).toContain("data:");
    expectBaseHeaders(response);
  });

  test("without third-party settings the policy names no other origin", async () => {
    const policy = (await get(createStaticSite(root, none), "/en/")).headers.get("content-security-policy");
    expect(policy).not.toMatch(/https?:/);
  });

  test("each third party is admitted only when its setting is present", async () => {
    for (const [setting, party] of Object.entries(thirdParties)) {
      const config = { ...none, [setting]: party.value };
      const policy = (await get(createStaticSite(root, config), "/en/")).headers.get(
        "content-security-policy",
      );
      for (const [directive, sources] of Object.entries(party.sources)) {
        expect(directives(policy).get(directive), `${setting}: ${directive}`).toEqual(
          expect.arrayContaining(sources),
        );
      }
      for (const host of policy?.match(/https:\/\/[^/\s;]+/g) ?? []) {
        expect(party.hosts, `${setting} alone admits ${host}`).toContain(host);
      }
    }
    const all = (await get(createStaticSite(root, allThirdParties), "/en/")).headers.get(
      "content-security-policy",
    );
    expect(directives(all).get("script-src")).not.toContain("'unsafe-inline'");
  });

  test("HSTS only when the public URL is https", async () => {
    const https = await get(createStaticSite(root, { ...none, publicUrl: "https://kannt.example" }), "/en/");
    expect(https.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    const http = await get(createStaticSite(root, { ...none, publicUrl: "http://localhost:3000" }), "/en/");
    expect(http.headers.get("strict-transport-security")).toBeNull();
    const unset = await get(createStaticSite(root, none), "/en/");
    expect(unset.headers.get("strict-transport-security")).toBeNull();
  });

  test("files that are not pages get the base headers and no policy", async () => {
    const response = await get(createStaticSite(root, allThirdParties), "/_astro/site.js");
    expectBaseHeaders(response);
    expect(response.headers.get("strict-transport-security")).toContain("max-age=31536000");
    expect(response.headers.get("content-security-policy")).toBeNull();
  });

  test("the 404 page gets the base headers and its own policy", async () => {
    const response = await get(createStaticSite(root, none), "/no/such/page");
    expect(response.status).toBe(404);
    expectBaseHeaders(response);
    expect(directives(response.headers.get("content-security-policy")).get("script-src")).toEqual([
      "'self'",
      await sha256(islandLoader),
    ]);
  });

  test("an unbuilt site's answer carries the base headers too", async () => {
    const response = await get(createStaticSite(join(root, "missing"), none), "/");
    expect(response.status).toBe(503);
    expectBaseHeaders(response);
  });

  test("addBaseSecurityHeaders sets the base headers on any Headers object", () => {
    const headers = addBaseSecurityHeaders(new Headers({ "content-type": "application/json" }), {
      publicUrl: "https://kannt.example",
    });
    expect(headers.get("content-type")).toBe("application/json");
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });
});

describe("API answers carry the base headers too", () => {
  const expectBaseHeaders = (response: Response) => {
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  };

  test("successes, errors, refusals before parsing and plain-text login errors alike", async () => {
    const { makeTestApp, postJson, request } = await import("../../helpers/app");
    const { app } = await makeTestApp({ PUBLIC_URL: "https://kannt.example" });
    const responses = [
      await app.handle(request("/api/health")),
      await app.handle(request("/api/no-such-call")),
      await app.handle(postJson("/api/register", "{not json")),
      await app.handle(postJson("/api/profile", { email: "a@b.c" })),
      await app.handle(postJson("/api/auth/login", { username: "x", password: "y" })),
      await app.handle(
        request("/api/register", { method: "POST", headers: { "content-length": String(10 * 1024 * 1024) } }),
      ),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 404, 400, 401, 400, 413]);
    for (const response of responses) {
      expectBaseHeaders(response);
      expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    }
  });
});
