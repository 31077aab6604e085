import { createHash } from "node:crypto";
import { sharedSandboxUrl } from "./adapters/sandbox/order-client";
import type { Config } from "./platform/config";

/** Without `mode`, a gateway URL is taken for the real gateway's. */
export type PolicyConfig = Pick<
  Config,
  "googleClientId" | "yandexClientId" | "recaptchaSiteKey" | "cloudPaymentsApiUrl"
> &
  Partial<Pick<Config, "mode">>;

type Directive =
  | "default-src"
  | "script-src"
  | "style-src"
  | "img-src"
  | "connect-src"
  | "frame-src"
  | "object-src"
  | "base-uri"
  | "form-action"
  | "frame-ancestors";

type Sources = Partial<Record<Directive, readonly string[]>>;

/**
 * Third parties a page may talk to, each admitted only when its setting is present;
 * without them the demo provider, the sandbox widget and ALTCHA are all same-origin
 * (the widget is another origin's only when a demo shares another instance's bank).
 */
const thirdParties: readonly {
  isConfigured: (config: PolicyConfig) => boolean;
  sources: Sources | ((config: PolicyConfig) => Sources);
}[] = [
  {
    // Google Identity Services: its script, button frame, calls and stylesheet; the
    // customer's avatar comes from the ID token's `picture` on googleusercontent.com.
    isConfigured: (config) => Boolean(config.googleClientId),
    sources: {
      "script-src": ["https://accounts.google.com/gsi/client"],
      "frame-src": ["https://accounts.google.com/gsi/"],
      "connect-src": ["https://accounts.google.com/gsi/"],
      "style-src": ["https://accounts.google.com/gsi/style"],
      "img-src": ["https://*.googleusercontent.com"],
    },
  },
  {
    // Yandex: /yauth reads the user info endpoint from the browser and shows the
    // avatar. The authorization page (oauth.yandex.ru) is a top-level navigation,
    // which CSP does not govern, so it needs no entry.
    isConfigured: (config) => Boolean(config.yandexClientId),
    sources: {
      "connect-src": ["https://login.yandex.ru"],
      "img-src": ["https://avatars.yandex.net"],
    },
  },
  {
    // reCAPTCHA v2 on the staff login: api.js, its releases on gstatic, the checkbox frames.
    isConfigured: (config) => Boolean(config.recaptchaSiteKey),
    sources: {
      "script-src": ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"],
      "frame-src": ["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"],
    },
  },
  {
    // The CloudPayments widget: its script and frames (3-D Secure runs inside them) and
    // the calls it makes; only with the real gateway, else the sandbox widget is ours.
    isConfigured: (config) => Boolean(config.cloudPaymentsApiUrl) && !sharedSandboxUrl(config),
    sources: {
      "script-src": ["https://widget.cloudpayments.ru"],
      "frame-src": ["https://widget.cloudpayments.ru"],
      "connect-src": ["https://widget.cloudpayments.ru", "https://api.cloudpayments.ru"],
    },
  },
  {
    // A demo sharing another instance's sandbox bank (DESIGN §15): that instance's widget
    // script, and its "Pay" call to that instance.
    isConfigured: (config) => Boolean(sharedSandboxUrl(config)),
    sources: (config) => {
      const url = sharedSandboxUrl(config);
      const origins = url ? [new URL(url).origin] : [];
      return { "script-src": origins, "connect-src": origins };
    },
  },
];

/**
 * The policy of one page: scripts only from this origin, the page's own inline scripts
 * by hash, and the configured third parties. Styles keep 'unsafe-inline': Astro inlines
 * each page's CSS for the first paint, and the Google button, reCAPTCHA and the payment
 * widget write style attributes into our document, which hashes cannot admit (a hash
 * would also switch 'unsafe-inline' off). CSS cannot run script; script-src stays strict.
 */
export function contentSecurityPolicy(config: PolicyConfig, scriptHashes: readonly string[]): string {
  const directives: Record<Directive, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", ...scriptHashes],
    "style-src": ["'self'", "'unsafe-inline'"],
    // data: for the invite QR code, rendered to a data URL in the browser.
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "frame-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  for (const party of thirdParties) {
    if (!party.isConfigured(config)) continue;
    const sources = typeof party.sources === "function" ? party.sources(config) : party.sources;
    for (const [directive, list] of Object.entries(sources) as [Directive, string[]][]) {
      directives[directive].push(...list);
    }
  }
  return Object.entries(directives)
    .map(([directive, sources]) => `${directive} ${sources.join(" ")}`)
    .join("; ");
}

// A script element's attributes may hold quoted ">"; its text never holds "</script".
const scriptElement = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script\s*>/gi;
const sourceAttribute = /(?:^|\s)src\s*=/i;

/**
 * The CSP hash source of every inline script in a page, as the browser computes it:
 * sha256 of the element's text, after the parser's newline normalisation.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = "", text = ""] of html.matchAll(scriptElement)) {
    if (sourceAttribute.test(attributes)) continue;
    const normalised = text.replace(/\r\n?/g, "\n");
    hashes.add(`'sha256-${createHash("sha256").update(normalised, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}
