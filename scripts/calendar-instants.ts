import { dayMs } from "../core/calendar";

/** An instant to start the test clock at (`KANNT_TEST_CLOCK_START`), or none: the wall clock. */
export type CalendarInstant = { label: string; start: string | undefined };

type Moment = { month: number; day: number; hour: number; minute: number; leapOnly?: boolean };

/**
 * Where billing meets the calendar: month ends of 31, 28 and 29 days (a month after 31
 * January is 28 or 29 February, not 3 March), and the last minutes of a year in UTC and at
 * the customers' own midnights (Moscow UTC+3, Almaty UTC+5), when the UTC day, month and
 * year differ from the local ones.
 */
const moments: { label: string; moment: Moment }[] = [
  { label: "31 Jan", moment: { month: 1, day: 31, hour: 0, minute: 0 } },
  { label: "28 Feb", moment: { month: 2, day: 28, hour: 0, minute: 0 } },
  { label: "29 Feb", moment: { month: 2, day: 29, hour: 0, minute: 0, leapOnly: true } },
  { label: "31 Mar", moment: { month: 3, day: 31, hour: 0, minute: 0 } },
  { label: "31 Dec 23:59 UTC", moment: { month: 12, day: 31, hour: 23, minute: 59 } },
  { label: "Moscow midnight", moment: { month: 12, day: 31, hour: 21, minute: 0 } },
  { label: "Almaty midnight", moment: { month: 12, day: 31, hour: 19, minute: 0 } },
];

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/**
 * The first occurrence of `moment` at least a day after `now`: the test clock only moves
 * forward, so its start must still lie ahead when the run's last test app is made.
 */
function nextOccurrence(moment: Moment, now: number): number {
  for (let year = new Date(now).getUTCFullYear(); ; year++) {
    if (moment.leapOnly && !isLeap(year)) continue;
    const at = Date.UTC(year, moment.month - 1, moment.day, moment.hour, moment.minute);
    if (at >= now + dayMs) return at;
  }
}

/** The instants the calendar run uses, the next of each from `now`, then the wall clock. */
export function calendarInstants(now: number): CalendarInstant[] {
  return [
    ...moments.map(({ label, moment }) => ({
      label,
      start: new Date(nextOccurrence(moment, now)).toISOString().replace(".000Z", "Z"),
    })),
    { label: "wall clock", start: undefined },
  ];
}
