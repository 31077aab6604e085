import { BarChart, LineChart } from "chartist";
import { useEffect, useId, useRef } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";

export type Series = { name: string; values: number[] };
type Props = {
  kind: "line" | "bar";
  title: string;
  /** One label per point: a day or a month, already in the operator's language. */
  labels: string[];
  series: Series[];
  /** How a value reads in the figures table and on the value axis. */
  format: (value: number) => string;
};

/**
 * Every n-th label, as many as the drawing's width holds with room for the longest one
 * (about 0.5em a character at the labels' 12 px, plus a gap), so they never overlap;
 * Chartist draws no label for null.
 */
const thinned = (labels: string[], element: HTMLElement) => {
  const room = 24 + 7 * Math.max(...labels.map((label) => label.length), 4);
  return (value: unknown, index: number) => {
    const most = Math.max(2, Math.floor((element.clientWidth - 64) / room));
    return index % Math.max(1, Math.ceil(labels.length / most)) === 0 ? String(value) : null;
  };
};

/**
 * One chart of the dashboard (Chartist draws it as SVG). The drawing is hidden from
 * assistive technology; the same numbers are in the figures table below it, which an
 * operator can open to read or copy exact values.
 */
export function DashboardChart({ kind, title, labels, series, format }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const area = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = area.current;
    if (!element) return;
    const options = {
      height: "13rem",
      low: 0,
      fullWidth: true,
      chartPadding: { top: 12, right: 28, bottom: 4, left: 8 },
      // Asked again at every redraw, a resize included.
      axisX: { showGrid: false, labelInterpolationFnc: thinned(labels, element) },
      axisY: { onlyInteger: true, offset: 56, labelInterpolationFnc: (value: number) => format(value) },
    };
    const data = { labels, series: series.map((one) => ({ name: one.name, data: one.values })) };
    const chart =
      kind === "line"
        ? new LineChart(element, data, { ...options, showPoint: labels.length <= 31, lineSmooth: false })
        : new BarChart(element, data, { ...options, seriesBarDistance: 12 });
    // A bar is as wide as its day's or month's share of the axis allows: a year of days
    // would otherwise paint one solid block.
    chart.on(
      "draw",
      (event: { type: string; element: { attr(a: object): unknown }; axisX?: { stepLength?: number } }) => {
        const step = event.axisX?.stepLength;
        if (event.type === "bar" && step)
          event.element.attr({
            style: `stroke-width: ${Math.max(1, Math.min(28, step * 0.7)).toFixed(1)}px`,
          });
      },
    );
    return () => {
      chart.detach();
    };
  }, [kind, labels, series, format]);

  return (
    <figure className="panel-chart" aria-labelledby={titleId}>
      <figcaption id={titleId} className="panel-chart__title">
        {title}
      </figcaption>
      {series.length > 1 && (
        <ul className="panel-chart__legend">
          {series.map((one, index) => (
            <li key={one.name} className={`panel-chart__key panel-chart__key--${index}`}>
              {one.name}
            </li>
          ))}
        </ul>
      )}
      <div ref={area} className={`panel-chart__area panel-chart__area--${kind}`} aria-hidden="true" />
      <details className="panel-chart__figures">
        <summary>{t("panel.dashboardFigures")}</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{t("panel.dashboardPeriod")}</th>
              {series.map((one) => (
                <th key={one.name} scope="col">
                  {one.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, index) => (
              // A year's range can name the same day of the month twice.
              // biome-ignore lint/suspicious/noArrayIndexKey: the rows are the points, in order, and never move.
              <tr key={index}>
                <th scope="row">{label}</th>
                {series.map((one) => (
                  <td key={one.name}>{format(one.values[index] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
