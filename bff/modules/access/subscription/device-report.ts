import type { DevicePlatform } from "../../../../db/queries/devices";

/** What a client app says of itself when it fetches the subscription. */
export type DeviceReport = {
  hwid?: string;
  /** The app's own name for the device (`x-device-name`), as its owner named the phone. */
  name?: string;
  os?: string;
  model?: string;
  appName?: string;
};

const maxHwidLength = 128;
const maxTextLength = 64;

/**
 * Control characters (C0, C1), every bidi control (the ALM, LRM and RLM marks, embeddings,
 * overrides, isolates), zero-width and invisible characters, line and paragraph separators
 * and the BOM: each can hide or reorder what a customer or operator reads.
 */
const unwanted =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/g;

/**
 * Client-reported text as text worth keeping (a device's name from the app, a header's
 * value): the characters above become spaces, spaces are collapsed, and it is cut to `max`
 * characters. Undefined when nothing is left. It stays text: every place that shows it
 * (cabinet, panel, export) writes it as text, never as markup.
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

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A header's value as the app wrote it. Header values reach us one byte per character, so
 * an app that names a phone "Телефон Анны" sends its UTF-8 bytes: read as UTF-8 when they
 * are valid UTF-8, else kept as they came (their control bytes are cleaned out after).
 */
export function headerUtf8(value: string | null): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: bytes above ASCII are what is looked for.
  if (value === null || !/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  try {
    return utf8.decode(Buffer.from(value, "latin1"));
  } catch {
    return value;
  }
}

export function deviceReportOf(headers: Headers): DeviceReport {
  return {
    hwid: cleanHwid(headers.get("x-hwid")),
    name: cleanText(headerUtf8(headers.get("x-device-name"))),
    os: cleanText(headerUtf8(headers.get("x-device-os"))),
    model: cleanText(headerUtf8(headers.get("x-device-model"))),
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

/**
 * The name a device gets from its first fetch: the app's own name for it, else its model,
 * else its OS, else the app's name. Whatever it is, it is what the app reported, and the
 * panel says so.
 */
export const reportedName = (report: DeviceReport) =>
  report.name ?? report.model ?? report.os ?? report.appName;
