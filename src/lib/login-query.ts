import type { TariffMonths } from "../../core/prices";

export type LoginQuery = {
  /** Raw `i` to keep under the storage key `i` (a non-number is kept as "5", as the spec says). */
  rawPeriod: string | null;
  rawTariff: string | null;
  period: number;
  tariff: TariffMonths;
  token: string | null;
};

const isWholeNumber = (value: string) => /^\s*-?\d+\s*$/.test(value);

/**
 * Spec §5: `i` is the trial length in days, 1 to 30, else 1 (a raw value that is not
 * a number is first stored as 5); `j` is the tariff in months, 1, 3, 6 or 12, else 1.
 */
export function normalizeLoginQuery(search: string): LoginQuery {
  const query = new URLSearchParams(search);
  const i = query.get("i");
  const j = query.get("j");
  const rawPeriod = i === null ? null : isWholeNumber(i) ? i.trim() : "5";
  const periodNumber = rawPeriod === null ? Number.NaN : Number(rawPeriod);
  const period = Number.isInteger(periodNumber) && periodNumber >= 1 && periodNumber <= 30 ? periodNumber : 1;
  const tariffNumber = j === null ? Number.NaN : Number(j);
  const tariff = ([1, 3, 6, 12] as const).find((months) => months === tariffNumber) ?? 1;
  return { rawPeriod, rawTariff: j, period, tariff, token: query.get("token") };
}

/**
 * Where /login returns after sign-in: a same-origin path (a single leading "/", not
 * "//host" or "/\host", which browsers read as another origin), else the cabinet.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next?.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/profile";
  // Control characters could smuggle a scheme or host past the checks above.
  if ([...next].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f))
    return "/profile";
  return next;
}
