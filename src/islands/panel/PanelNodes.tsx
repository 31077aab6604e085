import { type ReactNode, useEffect, useState } from "react";
import { formatDateTime } from "../../../core/date-time";
import { HoldButton } from "../../components/react/HoldButton";
import { api } from "../../lib/api-client";
import { formatBytes } from "../../lib/byte-size";
import { useTranslation } from "../../lib/i18n/use-translation";
import { showToast } from "../../lib/toast/toast-store";
import { panelCall } from "../../stores/panel-session";
import { NodeCreateForm, NodeRefusal, OnceKey } from "./NodesParts";
import { byNodeName, inboundText, isInSync, lagText, type RevealedKey, type VpnNode } from "./nodes-calls";
import { PanelLayout } from "./PanelLayout";
import { Empty, Failed, Loading, ScrollRegion } from "./PanelStates";
import { type Answer, attempt, type Refusal } from "./staff-calls";
import { usePanelData } from "./use-panel-data";

/**
 * One fact of a node. On a phone the table turns into one card per node, and each cell
 * shows its column's name above it; on a wide screen the column heading says it.
 */
function Cell({
  label,
  children,
  className = "",
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <td className={className || undefined}>
      <span className="panel-nodes__label" aria-hidden="true">
        {label}
      </span>
      {children}
    </td>
  );
}

function State({ node }: { node: VpnNode }) {
  const { t, language } = useTranslation();
  const state = node.disabled ? "disabled" : node.online ? "online" : "offline";
  const word = {
    disabled: "panel.nodesDisabled",
    online: "panel.nodesOnline",
    offline: "panel.nodesOffline",
  } as const;
  return (
    <>
      <span className="panel-nodes__state">
        <span className={`panel-nodes__dot panel-nodes__dot--${state}`} aria-hidden="true" />
        {t(word[state])}
      </span>
      {!node.online && (
        <span className="panel-nodes__detail">
          {node.lastSeenAt
            ? t("panel.nodesLastSeen", { when: formatDateTime(node.lastSeenAt, language) })
            : t("panel.nodesNeverSeen")}
        </span>
      )}
    </>
  );
}

/** One node: its facts, and the key rotation and disabling an administrator may do. */
function NodeRow({
  node,
  onChanged,
  onKey,
}: {
  node: VpnNode;
  onChanged: (node: VpnNode) => void;
  onKey: (revealed: RevealedKey) => void;
}) {
  const { t, language } = useTranslation();
  const [refusal, setRefusal] = useState<Refusal | undefined>();
  const [isBusy, setIsBusy] = useState(false);
  const path = api.panel.nodes({ id: node.id });

  const change = async <D extends { node: VpnNode }>(
    call: (headers: { authorization: string }) => Promise<Answer<D>>,
    done: (data: D) => void,
  ) => {
    setRefusal(undefined);
    setIsBusy(true);
    const outcome = await attempt(call);
    setIsBusy(false);
    if ("refusal" in outcome) {
      setRefusal(outcome.refusal);
      return;
    }
    onChanged(outcome.data.node);
    done(outcome.data);
  };
  const rotate = () =>
    change(
      (headers) => path.rotateKey.post({}, { headers }),
      ({ node: changed, key }) => {
        showToast(t("panel.nodesRotated", { name: changed.name }), "success");
        onKey({ name: changed.name, key });
      },
    );
  const setDisabled = (disabled: boolean) =>
    change(
      (headers) => (disabled ? path.disable.post({}, { headers }) : path.enable.post({}, { headers })),
      ({ node: changed }) =>
        showToast(
          t(disabled ? "panel.nodesDisabledDone" : "panel.nodesEnabledDone", { name: changed.name }),
          "success",
        ),
    );

  const none = <span className="muted">{t("panel.nodesNotReported")}</span>;
  return (
    <tr className="panel-nodes__row" aria-busy={isBusy}>
      <th scope="row" className="panel-nodes__name">
        <span translate="no">{node.name}</span>
      </th>
      <Cell label={t("panel.nodesColHost")}>
        {node.host ? <span translate="no">{node.host}</span> : none}
      </Cell>
      <Cell label={t("panel.nodesColState")}>
        <State node={node} />
      </Cell>
      <Cell label={t("panel.nodesColCore")}>
        {node.core ? <span translate="no">{`${node.core} ${node.coreVersion ?? ""}`.trim()}</span> : none}
      </Cell>
      <Cell label={t("panel.nodesColInbounds")}>
        {node.inbounds.length === 0 ? (
          none
        ) : (
          <ul className="panel-nodes__inbounds" translate="no">
            {node.inbounds.map((inbound) => (
              <li key={`${inbound.tag}-${inbound.port}`}>{inboundText(inbound)}</li>
            ))}
          </ul>
        )}
      </Cell>
      <Cell label={t("panel.nodesColCredentials")}>
        <span className="panel-nodes__figure">
          {t("panel.nodesCredentialsOf", {
            held: node.credentials.held,
            expected: node.credentials.expected,
          })}
        </span>
        {node.lastSeenAt !== null && (
          <span className={`badge ${isInSync(node) ? "badge--active" : "badge--expired"}`}>
            {t(isInSync(node) ? "panel.nodesInSync" : "panel.nodesOutOfSync")}
          </span>
        )}
      </Cell>
      <Cell label={t("panel.nodesColLag")}>{lagText(node.syncLagSeconds, t)}</Cell>
      <Cell label={t("panel.nodesColTraffic")}>
        {t("panel.nodesTraffic", {
          download: formatBytes(node.trafficToday.download, language),
          upload: formatBytes(node.trafficToday.upload, language),
        })}
      </Cell>
      <Cell label={t("panel.nodesColActions")} className="panel-nodes__actions">
        <div className="panel-nodes__buttons">
          <HoldButton
            label={t("panel.nodesRotate")}
            hint={t("panel.nodesHoldToRotate")}
            variant="ghost"
            disabled={isBusy}
            onConfirm={rotate}
          />
          {node.disabled ? (
            <button
              type="button"
              className="button button--ghost"
              disabled={isBusy}
              onClick={() => void setDisabled(false)}
            >
              {t("panel.nodesEnable")}
            </button>
          ) : (
            <HoldButton
              label={t("panel.nodesDisable")}
              hint={t("panel.nodesHoldToDisable")}
              variant="danger"
              disabled={isBusy}
              onConfirm={() => setDisabled(true)}
            />
          )}
        </div>
        {refusal && <NodeRefusal refusal={refusal} />}
      </Cell>
    </tr>
  );
}

function NodesTable({
  nodes,
  onChanged,
  onKey,
}: {
  nodes: VpnNode[];
  onChanged: (node: VpnNode) => void;
  onKey: (revealed: RevealedKey) => void;
}) {
  const { t } = useTranslation();
  const columns = [
    "panel.nodesColHost",
    "panel.nodesColState",
    "panel.nodesColCore",
    "panel.nodesColInbounds",
    "panel.nodesColCredentials",
    "panel.nodesColLag",
    "panel.nodesColTraffic",
    "panel.nodesColActions",
  ] as const;
  return (
    <ScrollRegion label={t("panel.nodesListTitle")}>
      <table className="panel-table panel-nodes">
        <thead>
          <tr>
            <th scope="col">{t("panel.nodesColName")}</th>
            {columns.map((key) => (
              <th key={key} scope="col">
                {t(key)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {nodes.map((node) => (
            <NodeRow key={node.id} node={node} onChanged={onChanged} onKey={onKey} />
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function Nodes() {
  const { t } = useTranslation();
  const { loaded, retry } = usePanelData("nodes", () =>
    panelCall((headers) => api.panel.nodes.get({ headers })),
  );
  const [nodes, setNodes] = useState<VpnNode[] | undefined>();
  const [revealed, setRevealed] = useState<RevealedKey | undefined>();
  useEffect(() => {
    if (loaded.state === "ready") setNodes([...loaded.data.nodes].sort(byNodeName));
  }, [loaded]);

  // A refresh keeps the list (and a key not yet copied) on screen while it asks.
  if (!nodes)
    return loaded.state === "failed" ? <Failed status={loaded.status} onRetry={retry} /> : <Loading />;
  const isRefreshing = loaded.state === "loading";
  const replace = (changed: VpnNode) =>
    setNodes((list) => list?.map((node) => (node.id === changed.id ? changed : node)));
  const online = nodes.filter((node) => node.online).length;

  return (
    <>
      {revealed && (
        <OnceKey key={revealed.key} revealed={revealed} onDismiss={() => setRevealed(undefined)} />
      )}
      <NodeCreateForm
        onCreated={(node, key) => {
          setNodes((list) => [...(list ?? []).filter((item) => item.id !== node.id), node].sort(byNodeName));
          setRevealed({ name: node.name, key });
        }}
      />
      <section className="card" aria-labelledby="nodes-list" aria-busy={isRefreshing}>
        <div className="panel-nodes__heading">
          <h2 id="nodes-list">{t("panel.nodesListTitle")}</h2>
          <button type="button" className="button button--ghost" disabled={isRefreshing} onClick={retry}>
            {t("panel.nodesRefresh")}
          </button>
        </div>
        {loaded.state === "failed" && <Failed status={loaded.status} onRetry={retry} />}
        {nodes.length === 0 ? (
          <Empty>{t("panel.nodesEmpty")}</Empty>
        ) : (
          <>
            <p className="muted">
              {t("panel.nodesSummary", {
                online,
                count: nodes.length,
                expected: nodes[0]?.credentials.expected ?? 0,
              })}
            </p>
            <NodesTable nodes={nodes} onChanged={replace} onKey={setRevealed} />
          </>
        )}
      </section>
    </>
  );
}

export function PanelNodes() {
  return (
    <PanelLayout title={(t) => t("panel.nodesTitle")} section="nodes">
      <Nodes />
    </PanelLayout>
  );
}
