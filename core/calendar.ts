/** Calendar arithmetic shared by the server's billing and the purchase screens. */
export const dayMs = 24 * 60 * 60 * 1000;

/** The day of the month of a moment, in UTC (1 to 31). */
export const dayOfMonth = (time: number): number => new Date(time).getUTCDate();

const lastDayOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/**
 * Adds calendar months in UTC and lands on `day` of the month, or on the month's last day
 * when the month is shorter; the time of day stays. The billing anchor's rule (DESIGN §13):
 * on day 31, 28 February + 1 month is 31 March, not 28 March.
 */
export function addMonthsOnDay(time: number, months: number, day: number): number {
  const date = new Date(time);
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  date.setUTCDate(Math.min(day, lastDayOfMonth(date.getUTCFullYear(), date.getUTCMonth())));
  return date.getTime();
}

/** Adds calendar months in UTC, clamping to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(time: number, months: number): number {
  return addMonthsOnDay(time, months, dayOfMonth(time));
}
