import { toCurrencyUnits } from "../../../core/money";
import { analytics, utcDay } from "../../../db/queries/analytics";
import { dashboardData } from "../../../db/queries/dashboard";
import type { AppContext } from "../../context";
import { dayMs } from "../../platform/calendar";
import { AppError } from "../../platform/errors";

type Currency = "RUB" | "KZT";
const maxDays = 366;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);
const isDay = (text: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(text) && Number.isFinite(dayStart(text)) && utcDay(dayStart(text)) === text;
const share = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 1000) / 1000;

/** The range asked for: UTC days, both included, at most a year; the last 30 days by default. */
function rangeOf(query: { from?: string; to?: string }, now: number) {
  const to = query.to ?? utcDay(now);
  const isDate = (text: string | undefined) => text === undefined || isDay(text);
  // Checked before the default start is worked out from the end.
  if (!isDate(to) || !isDate(query.from)) throw new AppError("invalid_date_range");
  const from = query.from ?? utcDay(dayStart(to) - 29 * dayMs);
  const days = (dayStart(to) - dayStart(from)) / dayMs + 1;
  if (days < 1) throw new AppError("date_range_reversed");
  if (days > maxDays) throw new AppError("date_range_too_long", { days: maxDays });
  return { from, to, days };
}

/**
 * The administrators' dashboard (DESIGN §16), over UTC days `from`–`to`: per day, the
 * subscriptions with access at the day's end, failed payments and the first-party events
 * (support clicks, purchases started and completed); revenue per calendar month and
 * currency (payments in the month they were made, refunds subtracted in the month they
 * were made); of the trials paid in the range, how many were renewed at least once; and
 * churn: of the subscriptions with access when the range began, the share whose access
 * ended for good within it.
 */
export async function dashboardOf(
  context: Pick<AppContext, "database" | "clock">,
  query: { from?: string; to?: string },
) {
  const { database, clock } = context;
  const { from, to, days } = rangeOf(query, clock.now());
  const start = dayStart(from);
  const end = dayStart(to) + dayMs;
  const dayList = Array.from({ length: days }, (_, index) => utcDay(start + index * dayMs));

  const periods = await dashboardData.accessPeriods(database, start, end);
  const activeAt = (time: number) =>
    periods.filter((period) => period.start_date <= time && period.end_date > time).length;
  const declinedByDay = new Map<string, number>();
  for (const { created_at } of await dashboardData.declinedPayments(database, start, end))
    declinedByDay.set(utcDay(created_at), (declinedByDay.get(utcDay(created_at)) ?? 0) + 1);
  const events = new Map<string, number>();
  for (const { day, name, count } of await analytics.daily(database, from, to))
    events.set(`${day} ${name}`, count);

  const revenue = new Map<string, Record<Currency, number>>();
  const add = (time: number, currency: Currency, amount: number) => {
    const month = utcDay(time).slice(0, 7);
    const sums = revenue.get(month) ?? { RUB: 0, KZT: 0 };
    sums[currency] += amount;
    revenue.set(month, sums);
  };
  for (const payment of await dashboardData.paidPayments(database, start, end))
    add(payment.created_at, payment.currency, payment.amount);
  for (const refund of await dashboardData.refundsMade(database, start, end))
    add(refund.refunded_at, refund.currency, -refund.refunded_amount);
  const months = [...new Set(dayList.map((day) => day.slice(0, 7)))].map((month) => {
    const sums = revenue.get(month) ?? { RUB: 0, KZT: 0 };
    return { month, revenue: { RUB: toCurrencyUnits(sums.RUB), KZT: toCurrencyUnits(sums.KZT) } };
  });

  const trials = await dashboardData.trials(database, start, end);
  const converted = trials.filter((trial) => trial.converted === 1).length;
  const activeAtStart = activeAt(start);
  const ended = await dashboardData.ended(database, start, end);
  return {
    from,
    to,
    days: dayList.map((day) => ({
      day,
      activeSubscriptions: activeAt(dayStart(day) + dayMs - 1),
      failedPayments: declinedByDay.get(day) ?? 0,
      supportClicks: events.get(`${day} go_support`) ?? 0,
      purchasesStarted: events.get(`${day} purchase_started`) ?? 0,
      purchasesCompleted: events.get(`${day} purchase_completed`) ?? 0,
    })),
    months,
    trialToPaid: { trials: trials.length, converted, rate: share(converted, trials.length) },
    churn: { activeAtStart, ended, rate: share(ended, activeAtStart) },
  };
}
