/**
 * One JSON line per event on stdout (journald keeps it). Lines carry counts and causes,
 * never a credential, the node key or a customer's address.
 */
export type Level = "info" | "warn" | "error";

export type Logger = (level: Level, message: string, fields?: Record<string, unknown>) => void;

export const consoleLogger: Logger = (level, message, fields) => {
  const line = JSON.stringify({ at: new Date().toISOString(), level, message, ...fields });
  if (level === "info") console.log(line);
  else console.error(line);
};

export const silentLogger: Logger = () => undefined;

/**
 * The same failure every second (a core that is down, a product that is unreachable) is
 * written once and then again only when it changes or a minute has passed.
 */
export function throttledLogger(log: Logger, now: () => number = Date.now): Logger {
  const lastWritten = new Map<string, number>();
  return (level, message, fields) => {
    const key = `${level} ${message} ${JSON.stringify(fields ?? {})}`;
    const last = lastWritten.get(key);
    if (level !== "info" && last !== undefined && now() - last < 60_000) return;
    if (lastWritten.size > 1000) lastWritten.clear();
    lastWritten.set(key, now());
    log(level, message, fields);
  };
}
