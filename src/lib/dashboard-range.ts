/**
 * The dashboard's range: a preset (the last 7, 30, 90 or 365 days up to today, UTC) or
 * two chosen UTC days. It lives in the address (`?days=90`, `?from=…&to=…`) so a reload
 * or a shared link shows the same figures.
 */
export const presets = [7, 30, 90, 365] as const;
export type Preset = (typeof presets)[number];
export type Range = { kind: "preset"; days: Preset } | { kind: "custom"; from: string; to: string };

/** The server's limit (DESIGN §16): at most 366 days, both ends included. */
export const maxDays = 366;
const dayMs = 86_400_000;
export const defaultRange: Range = { kind: "preset", days: 30 };

const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);
export const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);
/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export const isDay = (text: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(text) && Number.isFinite(dayStart(text)) && utcDay(dayStart(text)) === text;

/** Why two chosen days are not a range, or undefined when they are one. */
export function customProblem(from: string, to: string): "dates" | "order" | "length" | undefined {
  if (!isDay(from) || !isDay(to)) return "dates";
  const days = (dayStart(to) - dayStart(from)) / dayMs + 1;
  if (days < 1) return "order";
  return days > maxDays ? "length" : undefined;
}

/** The range an address asks for; anything malformed falls back to the default. */
export function rangeFromSearch(search: string): Range {
  const query = new URLSearchParams(search);
  const from = query.get("from");
  const to = query.get("to");
  if (from && to && customProblem(from, to) === undefined) return { kind: "custom", from, to };
  const days = Number(query.get("days"));
  return presets.find((preset) => preset === days) ? { kind: "preset", days: days as Preset } : defaultRange;
}

export function searchOf(range: Range): string {
  return range.kind === "preset" ? `?days=${range.days}` : `?from=${range.from}&to=${range.to}`;
}

/** The days the server is asked for; a preset ends today by the server's clock. */
export function daysOf(range: Range, now: number): { from: string; to: string } {
  if (range.kind === "custom") return { from: range.from, to: range.to };
  const to = utcDay(now);
  return { from: utcDay(dayStart(to) - (range.days - 1) * dayMs), to };
}
