import { atom } from "nanostores";
import { type ApiData, api } from "../lib/api-client";
import {
  customProblem,
  daysOf,
  defaultRange,
  type Preset,
  type Range,
  rangeFromSearch,
  searchOf,
} from "../lib/dashboard-range";
import { panelQuery } from "./panel-query";
import { panelCall } from "./panel-session";
import { serverNow, syncServerClock } from "./server-clock";

export type Dashboard = ApiData<typeof api.panel.dashboard.get>;
/** The figures and the range (its address) they answer. */
export type Figures = Dashboard & { key: string };

/** Why two chosen days are not a range, shown beside the form; nothing is asked then. */
export const $rangeProblem = atom<ReturnType<typeof customProblem>>();

/**
 * The range comes from the address when the page loads, before anything is drawn, so the
 * form shows the days a reload or a shared link asks for.
 */
const figures = panelQuery<Range, Figures>(
  typeof location === "undefined" ? defaultRange : rangeFromSearch(location.search),
  async (range) => {
    await syncServerClock();
    const query = daysOf(range, serverNow());
    const answer = await panelCall((headers) => api.panel.dashboard.get({ headers, query }));
    return { ...answer, data: answer.data ? { ...answer.data, key: searchOf(range) } : null };
  },
  { keyOf: searchOf },
);

export const $dashboardRange = figures.$query;
export const $dashboardFigures = figures.$loaded;
export const retryDashboard = figures.retry;

/**
 * A new range keeps the old figures on screen, marked as not yet its own, until they arrive.
 * Kept by listening rather than with nanostores' `computed`: that would become a chunk shared
 * with the customer pages, whose JavaScript budget has no room for the split.
 */
export const $isDashboardStale = atom(false);
const judgeStaleness = () => {
  const loaded = $dashboardFigures.get();
  $isDashboardStale.set(loaded.state === "ready" && loaded.data.key !== searchOf($dashboardRange.get()));
};
$dashboardRange.listen(judgeStaleness);
$dashboardFigures.listen(judgeStaleness);

export const openDashboard = () => figures.ask($dashboardRange.get());

/** The range goes into the address, so a reload or a shared link shows the same figures. */
function chooseRange(range: Range): Promise<void> {
  history.replaceState(null, "", `${location.pathname}${searchOf(range)}`);
  return figures.ask(range);
}

export function choosePreset(days: Preset): Promise<void> {
  $rangeProblem.set(undefined);
  return chooseRange({ kind: "preset", days });
}

export async function chooseDays(from: string, to: string): Promise<void> {
  const problem = customProblem(from, to);
  $rangeProblem.set(problem);
  if (!problem) await chooseRange({ kind: "custom", from, to });
}
