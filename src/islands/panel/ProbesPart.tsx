import { useStore } from "@nanostores/react";
import { type FormEvent, useEffect, useState } from "react";
import { formatDateTime } from "../../../core/date-time";
import { HoldButton } from "../../components/react/HoldButton";
import { useTranslation } from "../../lib/i18n/use-translation";
import { idle } from "../../stores/panel-change";
import {
  $probeChanges,
  $probeCreation,
  $probes,
  $probesRead,
  $revealedProbeKey,
  createProbe,
  dismissProbeKey,
  openProbes,
  type Probe,
  refreshProbes,
  rotateProbeKey,
  setProbeDisabled,
} from "../../stores/panel-probes";
import { probeRefusalKey } from "./entries-calls";
import { NodeRefusal, OnceKey } from "./NodesParts";
import { Empty, Failed, Loading } from "./PanelStates";

const probeKeyWords = {
  title: "panel.probesKeyFor",
  label: "panel.probesKey",
  once: "panel.probesKeyOnce",
} as const;

/** Reporting, last seen, never heard from, or disabled. */
function ProbeState({ probe }: { probe: Probe }) {
  const { t, language } = useTranslation();
  const state = probe.disabled ? "disabled" : probe.reporting ? "online" : "offline";
  const word = probe.disabled
    ? "panel.probesDisabled"
    : probe.reporting
      ? "panel.probesReporting"
      : "panel.probesSilent";
  return (
    <span className="panel-entries__state">
      <span className={`panel-nodes__dot panel-nodes__dot--${state}`} aria-hidden="true" />
      <span>
        {t(word)}
        {!probe.reporting && (
          <span className="panel-nodes__detail">
            {probe.lastSeenAt
              ? t("panel.nodesLastSeen", { when: formatDateTime(probe.lastSeenAt, language) })
              : t("panel.nodesNeverSeen")}
          </span>
        )}
      </span>
    </span>
  );
}

function ProbeRow({ probe }: { probe: Probe }) {
  const { t } = useTranslation();
  const { isBusy, refusal } = useStore($probeChanges, { keys: [String(probe.id)] })[probe.id] ?? idle;
  return (
    <li className="panel-staff__member panel-probes__item" aria-busy={isBusy}>
      <div>
        <p className="panel-staff__name">
          <strong translate="no">{probe.name}</strong>
        </p>
        <ProbeState probe={probe} />
      </div>
      <div className="panel-staff__actions">
        <HoldButton
          label={t("panel.nodesRotate")}
          hint={t("panel.nodesHoldToRotate")}
          variant="ghost"
          disabled={isBusy}
          onConfirm={() => rotateProbeKey(probe)}
        />
        {probe.disabled ? (
          <button
            type="button"
            className="button button--ghost"
            disabled={isBusy}
            onClick={() => void setProbeDisabled(probe, false)}
          >
            {t("panel.nodesEnable")}
          </button>
        ) : (
          <HoldButton
            label={t("panel.nodesDisable")}
            hint={t("panel.probesHoldToDisable")}
            variant="danger"
            disabled={isBusy}
            onConfirm={() => setProbeDisabled(probe, true)}
          />
        )}
      </div>
      {refusal && <NodeRefusal refusal={refusal} reasonOf={probeRefusalKey} />}
    </li>
  );
}

function ProbeCreateForm() {
  const { t } = useTranslation();
  const { isBusy, refusal } = useStore($probeCreation);
  const [name, setName] = useState("");
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await createProbe(name)) setName("");
  };
  return (
    <form className="form panel-staff__form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="probe-name">{t("panel.probesName")}</label>
        <input
          id="probe-name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={64}
          autoComplete="off"
          spellCheck={false}
          aria-describedby="probe-name-hint"
        />
        <span id="probe-name-hint" className="muted panel-staff__hint">
          {t("panel.probesNameHint")}
        </span>
      </div>
      {refusal && <NodeRefusal refusal={refusal} reasonOf={probeRefusalKey} />}
      <button type="submit" className="button button--primary" disabled={isBusy} aria-busy={isBusy}>
        {t("panel.probesCreate")}
      </button>
    </form>
  );
}

/** Probe agents (DESIGN §8): machines in the customers' networks that dial every entry as an app would. */
export function ProbesPart() {
  const { t } = useTranslation();
  const loaded = useStore($probesRead);
  const probes = useStore($probes);
  const revealed = useStore($revealedProbeKey);
  useEffect(() => {
    void openProbes();
  }, []);
  const retry = () => void refreshProbes();
  const isRefreshing = loaded.state === "loading";

  return (
    <section className="card" aria-labelledby="probes-title" aria-busy={isRefreshing}>
      <div className="panel-nodes__heading">
        <h2 id="probes-title">{t("panel.probesTitle")}</h2>
        <button type="button" className="button button--ghost" disabled={isRefreshing} onClick={retry}>
          {t("panel.nodesRefresh")}
        </button>
      </div>
      <p className="muted">{t("panel.probesIntro")}</p>
      {revealed && (
        <OnceKey key={revealed.key} revealed={revealed} onDismiss={dismissProbeKey} words={probeKeyWords}>
          <p className="panel-staff__hint">{t("panel.probesRunHint")}</p>
          <pre className="panel-probes__command" translate="no">
            {`cd /opt/kannt/agent\nAGENT_MODE=probe KANNT_URL=${location.origin} PROBE_KEY=${revealed.key} CORE=xray CORE_BIN=/usr/local/bin/xray npm start`}
          </pre>
        </OnceKey>
      )}
      <ProbeCreateForm />
      {!probes ? (
        loaded.state === "failed" ? (
          <Failed failure={loaded} onRetry={retry} />
        ) : (
          <Loading />
        )
      ) : (
        <>
          {loaded.state === "failed" && <Failed failure={loaded} onRetry={retry} />}
          {probes.length === 0 ? (
            <Empty>{t("panel.probesEmpty")}</Empty>
          ) : (
            <ul className="panel-staff__list">
              {probes.map((probe) => (
                <ProbeRow key={probe.id} probe={probe} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
