import { useStore } from "@nanostores/react";
import { type FormEvent, useId, useState } from "react";
import { maxDays, presets } from "../../lib/dashboard-range";
import { useTranslation } from "../../lib/i18n/use-translation";
import { $dashboardRange, $rangeProblem, chooseDays, choosePreset } from "../../stores/panel-dashboard";

const problemKeys = {
  dates: "panel.dashboardRangeDates",
  order: "panel.dashboardRangeOrder",
  length: "panel.dashboardRangeLength",
} as const;

/** The dashboard's range: the last 7, 30, 90 or 365 days, or two chosen days. */
export function DashboardRange() {
  const { t } = useTranslation();
  const errorId = useId();
  const range = useStore($dashboardRange);
  const problem = useStore($rangeProblem);
  const [from, setFrom] = useState(range.kind === "custom" ? range.from : "");
  const [to, setTo] = useState(range.kind === "custom" ? range.to : "");

  const apply = (event: FormEvent) => {
    event.preventDefault();
    void chooseDays(from, to);
  };

  return (
    <div className="panel-range">
      <fieldset className="panel-range__presets">
        <legend className="panel-range__legend">{t("panel.dashboardRange")}</legend>
        {presets.map((days) => (
          <button
            key={days}
            type="button"
            className="panel-range__preset"
            aria-pressed={range.kind === "preset" && range.days === days}
            onClick={() => void choosePreset(days)}
          >
            {t("panel.dashboardLastDays", { count: days })}
          </button>
        ))}
      </fieldset>
      <form className="panel-range__custom" onSubmit={apply} noValidate>
        <label className="field">
          {t("panel.dashboardFrom")}
          <input
            type="date"
            value={from}
            aria-invalid={problem !== undefined}
            aria-describedby={problem ? errorId : undefined}
            onChange={(event) => setFrom(event.target.value)}
          />
        </label>
        <label className="field">
          {t("panel.dashboardTo")}
          <input
            type="date"
            value={to}
            aria-invalid={problem !== undefined}
            aria-describedby={problem ? errorId : undefined}
            onChange={(event) => setTo(event.target.value)}
          />
        </label>
        <button type="submit" className="button button--ghost" aria-pressed={range.kind === "custom"}>
          {t("panel.dashboardApply")}
        </button>
        {problem && (
          <p id={errorId} className="form__error panel-range__problem" role="alert">
            {t(problemKeys[problem], { days: maxDays })}
          </p>
        )}
      </form>
    </div>
  );
}
