import { useStore } from "@nanostores/react";
import { useEffect, useMemo } from "react";
import { formatDate, formatDayMonth, formatMonthYear } from "../../../core/date-time";
import { formatUnits } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $dashboardFigures,
  $isDashboardStale,
  type Dashboard,
  openDashboard,
  retryDashboard,
} from "../../stores/panel-dashboard";
import { DashboardChart } from "./DashboardChart";
import { DashboardRange } from "./DashboardRange";
import { PanelLayout } from "./PanelLayout";
import { Failed, Loading } from "./PanelStates";

type T = ReturnType<typeof useTranslation>["t"];
const utc = { timeZone: "UTC" };
const dayTime = (day: string) => Date.parse(`${day}T00:00:00Z`);
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** A figure of the range: a big number and what it counts. */
function Tile({
  label,
  value,
  detail,
  name,
}: {
  label: string;
  value: string;
  detail?: string;
  name: string;
}) {
  return (
    <div className="panel-tile" data-testid={`tile-${name}`}>
      <dt>{label}</dt>
      <dd className="panel-tile__value">{value}</dd>
      {detail && <dd className="panel-tile__detail">{detail}</dd>}
    </div>
  );
}

/** A share as a percentage; a dash when there was nothing to count. */
const rateText = (rate: number | null, language: string) =>
  rate === null
    ? "—"
    : new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 1 }).format(rate);

function Tiles({ data, t, language }: { data: Dashboard; t: T; language: string }) {
  const count = (value: number) => new Intl.NumberFormat(language).format(value);
  const last = data.days.at(-1);
  const revenue = (currency: "RUB" | "KZT") => sum(data.months.map((month) => month.revenue[currency]));
  const { trialToPaid, churn } = data;
  return (
    <dl className="panel-tiles">
      <Tile
        name="active"
        label={t("panel.dashboardActive")}
        value={count(last?.activeSubscriptions ?? 0)}
        detail={
          last ? t("panel.dashboardOn", { date: formatDate(dayTime(last.day), language, utc) }) : undefined
        }
      />
      <Tile
        name="revenue-rub"
        label={t("panel.dashboardRevenueRub")}
        value={formatUnits(revenue("RUB"), "RUB")}
      />
      <Tile
        name="revenue-kzt"
        label={t("panel.dashboardRevenueKzt")}
        value={formatUnits(revenue("KZT"), "KZT")}
      />
      <Tile
        name="trial-to-paid"
        label={t("panel.dashboardTrialToPaid")}
        value={rateText(trialToPaid.rate, language)}
        detail={
          trialToPaid.trials === 0
            ? t("panel.dashboardNoTrials")
            : t("panel.dashboardConverted", {
                converted: count(trialToPaid.converted),
                trials: count(trialToPaid.trials),
              })
        }
      />
      <Tile
        name="churn"
        label={t("panel.dashboardChurn")}
        value={rateText(churn.rate, language)}
        detail={
          churn.activeAtStart === 0
            ? t("panel.dashboardNoneAtStart")
            : t("panel.dashboardEnded", { ended: count(churn.ended), active: count(churn.activeAtStart) })
        }
      />
      <Tile
        name="failed"
        label={t("panel.dashboardFailed")}
        value={count(sum(data.days.map((day) => day.failedPayments)))}
      />
      <Tile
        name="support"
        label={t("panel.dashboardSupport")}
        value={count(sum(data.days.map((day) => day.supportClicks)))}
      />
    </dl>
  );
}

function Charts({ data, t, language }: { data: Dashboard; t: T; language: string }) {
  const charts = useMemo(() => {
    const days = data.days.map((day) => formatDayMonth(dayTime(day.day), language, utc));
    const months = data.months.map((month) => formatMonthYear(dayTime(`${month.month}-01`), language, utc));
    const perDay = (name: string, pick: (day: Dashboard["days"][number]) => number) => ({
      name,
      values: data.days.map(pick),
    });
    return {
      days,
      months,
      active: [perDay(t("panel.dashboardActive"), (day) => day.activeSubscriptions)],
      failed: [perDay(t("panel.dashboardFailed"), (day) => day.failedPayments)],
      support: [perDay(t("panel.dashboardSupport"), (day) => day.supportClicks)],
      purchases: [
        perDay(t("panel.dashboardStarted"), (day) => day.purchasesStarted),
        perDay(t("panel.dashboardCompleted"), (day) => day.purchasesCompleted),
      ],
      rub: [{ name: t("panel.dashboardRevenueRub"), values: data.months.map((month) => month.revenue.RUB) }],
      kzt: [{ name: t("panel.dashboardRevenueKzt"), values: data.months.map((month) => month.revenue.KZT) }],
    };
  }, [data, t, language]);
  const formats = useMemo(() => {
    const count = new Intl.NumberFormat(language);
    const compact = new Intl.NumberFormat(language, { notation: "compact" });
    return {
      count: (value: number) => count.format(value),
      rub: (value: number) => (Number.isInteger(value) ? compact.format(value) : formatUnits(value, "RUB")),
      kzt: (value: number) => (Number.isInteger(value) ? compact.format(value) : formatUnits(value, "KZT")),
    };
  }, [language]);
  const list = [
    {
      kind: "line",
      key: "panel.dashboardActiveChart",
      labels: charts.days,
      series: charts.active,
      format: formats.count,
    },
    {
      kind: "bar",
      key: "panel.dashboardRevenueRubChart",
      labels: charts.months,
      series: charts.rub,
      format: formats.rub,
    },
    {
      kind: "bar",
      key: "panel.dashboardRevenueKztChart",
      labels: charts.months,
      series: charts.kzt,
      format: formats.kzt,
    },
    {
      kind: "bar",
      key: "panel.dashboardFailedChart",
      labels: charts.days,
      series: charts.failed,
      format: formats.count,
    },
    {
      kind: "bar",
      key: "panel.dashboardSupportChart",
      labels: charts.days,
      series: charts.support,
      format: formats.count,
    },
    {
      kind: "line",
      key: "panel.dashboardPurchasesChart",
      labels: charts.days,
      series: charts.purchases,
      format: formats.count,
    },
  ] as const;
  return (
    <div className="panel-charts">
      {list.map(({ key, ...chart }) => (
        <DashboardChart key={key} title={t(key)} {...chart} />
      ))}
    </div>
  );
}

/** The range's figures and charts; a new range keeps the old figures, marked busy, until it arrives. */
function Figures() {
  const { t, language } = useTranslation();
  const loaded = useStore($dashboardFigures);
  const isStale = useStore($isDashboardStale);
  useEffect(() => {
    void openDashboard();
  }, []);
  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "failed") return <Failed failure={loaded} onRetry={() => void retryDashboard()} />;
  const { data } = loaded;
  return (
    <section className="panel-dashboard" aria-busy={isStale} aria-labelledby="dashboard-range">
      <h2 id="dashboard-range" className="panel-dashboard__range" data-testid="dashboard-range">
        {t("panel.dashboardShowing", {
          from: formatDate(dayTime(data.from), language, utc),
          to: formatDate(dayTime(data.to), language, utc),
        })}
        {isStale && <span className="muted"> · {t("panel.loading")}</span>}
      </h2>
      <Tiles data={data} t={t} language={language} />
      <Charts data={data} t={t} language={language} />
    </section>
  );
}

function Screen() {
  return (
    <>
      <DashboardRange />
      <Figures />
    </>
  );
}

export function PanelDashboard() {
  return (
    <PanelLayout title={(t) => t("panel.dashboardTitle")} section="dashboard">
      <Screen />
    </PanelLayout>
  );
}
