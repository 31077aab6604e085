import type { DevicePlatform } from "../../../../db/queries/devices";

/** What a client app says of itself when it fetches the subscription. */
export type DeviceReport = {
  hwid?: string;
  os?: string;
  model?: string;
  appName?: string;
};

const maxHwidLength = 128;
const maxTextLength = 64;

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const unwanted = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A header's value as text worth keeping: control characters and direction marks removed
 * (they could hide what an operator reads), spaces collapsed, cut to `max`. Undefined when
 * nothing is left.
 */
export function cleanText(value: string | null, max = maxTextLength): string | undefined {
  if (value === null) return undefined;
  const text = value.replace(unwanted, " ").replace(/\s+/g, " ").trim();
  if (text === "") return undefined;
  return Array.from(text).slice(0, max).join("").trim();
}

/** A hardware id is compared whole: one too long is refused, never cut into another id. */
function cleanHwid(value: string | null): string | undefined {
  const text = cleanText(value, Number.MAX_SAFE_INTEGER);
  return text && text.length <= maxHwidLength ? text : undefined;
}

/** Generic HTTP clients and browsers: their name says nothing about the device. */
const genericAgents = new Set([
  "mozilla",
  "curl",
  "wget",
  "okhttp",
  "dalvik",
  "go-http-client",
  "python-requests",
  "python-urllib",
  "axios",
  "node-fetch",
  "undici",
  "bun",
]);

/** The app's name from its User-Agent's first product ("Happ/3.1.2 …" → "Happ"). */
export function appNameOf(userAgent: string | null): string | undefined {
  const product = /^\s*([A-Za-z][A-Za-z0-9 ._-]{0,39}?)\s*\//.exec(userAgent ?? "")?.[1];
  if (!product || genericAgents.has(product.toLowerCase())) return undefined;
  return cleanText(product);
}

export function deviceReportOf(headers: Headers): DeviceReport {
  return {
    hwid: cleanHwid(headers.get("x-hwid")),
    os: cleanText(headers.get("x-device-os")),
    model: cleanText(headers.get("x-device-model")),
    appName: appNameOf(headers.get("user-agent")),
  };
}

/** The platform of DESIGN's device record, from the OS the app names. */
export function platformOf(os: string | undefined): DevicePlatform | undefined {
  if (!os) return undefined;
  const name = os.toLowerCase();
  if (/\b(ios|ipados)\b/.test(name)) return "ios";
  if (name.includes("android")) return "android";
  if (name.includes("windows")) return "windows";
  if (/mac ?os|os ?x|darwin|linux|ubuntu|debian|fedora/.test(name)) return "desktop";
  return "other";
}

/** The name a device gets from its first fetch: its model, else its OS, else the app. */
export const reportedName = (report: DeviceReport) => report.model ?? report.os ?? report.appName;
