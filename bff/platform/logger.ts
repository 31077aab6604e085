/** Structured one-line logs; quiet under tests unless LOG_LEVEL asks otherwise. */
export const logLevels = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof logLevels)[number];
type Level = LogLevel;
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** The configuration's LOG_LEVEL, set by the start (server.ts) once it is loaded. */
let configured: Level | undefined;

export function setLogLevel(level: Level | undefined): void {
  configured = level;
}

/**
 * Without a configured level: info. Under the test runner, whose tests build parts of the
 * server without starting it, nothing unless a test asks for a level in its own
 * environment: the one place a variable is read outside the configuration, and only there.
 */
function threshold(): number {
  if (configured) return order[configured];
  if (!process.env.VITEST) return order.info;
  const asked = process.env.LOG_LEVEL;
  return asked !== undefined && asked in order ? order[asked as Level] : order.error + 1;
}

/**
 * Names of fields whose values never reach a log (DESIGN §12): card tokens, session,
 * refresh, access and prepaid tokens, passwords, captcha solutions, credentials, secrets,
 * and the device and node keys the VPN side stores only hashed.
 * A log line is read by more people, and kept longer, than the database it describes.
 */
const sensitiveName =
  /token|password|passwd|secret|session|captcha|credential|cookie|authorization|hmac|signature|card_?number|cvv|(?:access|node|api|private)[-_]?key/i;
const redacted = "[redacted]";

/**
 * URLs keep their path; sensitive values are blanked wherever a name=value pair can be:
 * the query, the fragment (where OAuth puts an access_token) and cookie-header text.
 */
function redactUrl(text: string): string {
  return text.replace(/(^|[?&#;\s])([^=?&#;\s]+)=([^&#;\s]*)/g, (whole, separator, name, value) =>
    sensitiveName.test(decodeURIComponentSafe(name)) && value ? `${separator}${name}=${redacted}` : whole,
  );
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A password inside a URL's user part (`smtps://user:password@host`, SMTP_URL's form). */
const urlPassword = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):[^\s/?#@]*@/gi;

/**
 * The token of a subscription URL (`/sub/{token}`, DESIGN §8) is the link itself: whoever
 * reads it connects as the device, so a logged request URL keeps only the prefix.
 */
const subscriptionToken = /\/sub\/[^/?#\s"']+/g;

function redactText(text: string): string {
  const withoutTokens = text.includes("/sub/") ? text.replace(subscriptionToken, `/sub/${redacted}`) : text;
  const withoutPasswords = withoutTokens.includes("@")
    ? withoutTokens.replace(urlPassword, `$1:${redacted}@`)
    : withoutTokens;
  return withoutPasswords.includes("=") ? redactUrl(withoutPasswords) : withoutPasswords;
}

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactText(value);
  if (value === null || typeof value !== "object") return value;
  // Deeper than any field the code logs: dropped rather than written unchecked.
  if (depth > 8) return `${redacted} (too deep)`;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([name, child]) => [
      name,
      sensitiveName.test(name) && child !== undefined && child !== null ? redacted : redact(child, depth + 1),
    ]),
  );
}

function write(level: Level, message: string, fields?: Record<string, unknown>): void {
  if (order[level] < threshold()) return;
  const line = JSON.stringify({
    time: new Date().toISOString(),
    level,
    message,
    ...(fields ? (redact(fields) as Record<string, unknown>) : {}),
  });
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
