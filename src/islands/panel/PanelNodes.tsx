import { useStore } from "@nanostores/react";
import { type ReactNode, useEffect } from "react";
import { formatDateTime } from "../../../core/date-time";
import { HoldButton } from "../../components/react/HoldButton";
import { formatBytes } from "../../lib/byte-size";
import { useTranslation } from "../../lib/i18n/use-translation";
import { idle } from "../../stores/panel-change";
import {
  $nodeChanges,
  $nodes,
  $nodesRead,
  $revealedKey,
  dismissKey,
  openNodes,
  refreshNodes,
  rotateNodeKey,
  setNodeDisabled,
  type VpnNode,
} from "../../stores/panel-nodes";
import { EntriesPart } from "./EntriesPart";
import { NodeCreateForm, NodeRefusal, OnceKey } from "./NodesParts";
import { inboundParts, isInSync, lagText, nodeState } from "./nodes-calls";
import { PanelLayout } from "./PanelLayout";
import { Empty, Failed, Loading, ScrollRegion } from "./PanelStates";
import { ProbesPart } from "./ProbesPart";

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
  const state = nodeState(node);
  const word = {
    disabled: "panel.nodesDisabled",
    coreDown: "panel.nodesCoreDown",
    online: "panel.nodesOnline",
    offline: "panel.nodesOffline",
  } as const;
  return (
    <>
      <span className="panel-nodes__state">
        <span className={`panel-nodes__dot panel-nodes__dot--${state}`} aria-hidden="true" />
        {t(word[state])}
      </span>
      {state === "coreDown" && <span className="panel-nodes__detail">{t("panel.nodesCoreDownDetail")}</span>}
      {!node.online && (
        <span className="panel-nodes__detail">
          {node.lastSeenAt
            ? t("panel.nodesLastSeen", { when: formatDateTime(node.lastSeenAt, language) })
            : t("panel.nodesNeverSeen")}
        </span>
      )}
      {node.oldKeyLastUsedAt && (
        <span className="panel-nodes__detail panel-nodes__warning">
          {t("panel.nodesOldKeyUsed", { when: formatDateTime(node.oldKeyLastUsedAt, language) })}
        </span>
      )}
      {node.refusedAgent && (
        <span className="panel-nodes__detail panel-nodes__warning">
          {t("panel.nodesAgentRefused", {
            when: formatDateTime(node.refusedAgent.at, language),
            address: node.refusedAgent.address ?? "?",
          })}
        </span>
      )}
    </>
  );
}

/** One node: its facts, and the key rotation and disabling an administrator may do. */
function NodeRow({ node }: { node: VpnNode }) {
  const { t, language } = useTranslation();
  const { isBusy, refusal } = useStore($nodeChanges, { keys: [String(node.id)] })[node.id] ?? idle;

  const none = <span className="muted">{t("panel.nodesNotReported")}</span>;
  return (
    <tr className="panel-nodes__row" aria-busy={isBusy}>
      <th scope="row" className="panel-nodes__name">
        <span translate="no">{node.name}</span>
        {/* The address under the name: a column of its own left no room for the actions. */}
        {node.host && (
          <span className="panel-nodes__host">
            <span className="visually-hidden">{t("panel.nodesColHost")} </span>
            <span translate="no">{node.host}</span>
          </span>
        )}
      </th>
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
            {node.inbounds.map((inbound) => {
              const [entry, transport] = inboundParts(inbound);
              return (
                <li key={`${inbound.tag}-${inbound.port}`}>
                  <span>{entry}</span> <span>{transport}</span>
                </li>
              );
            })}
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
        <span className="panel-nodes__detail">
          {t("panel.nodesLagLine", { lag: lagText(node.syncLagSeconds, t) })}
        </span>
      </Cell>
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
            onConfirm={() => rotateNodeKey(node)}
          />
          {node.disabled ? (
            <button
              type="button"
              className="button button--ghost"
              disabled={isBusy}
              onClick={() => void setNodeDisabled(node, false)}
            >
              {t("panel.nodesEnable")}
            </button>
          ) : (
            <HoldButton
              label={t("panel.nodesDisable")}
              hint={t("panel.nodesHoldToDisable")}
              variant="danger"
              disabled={isBusy}
              onConfirm={() => setNodeDisabled(node, true)}
            />
          )}
        </div>
        {refusal && <NodeRefusal refusal={refusal} />}
      </Cell>
    </tr>
  );
}

function NodesTable({ nodes }: { nodes: VpnNode[] }) {
  const { t } = useTranslation();
  const columns = [
    "panel.nodesColState",
    "panel.nodesColCore",
    "panel.nodesColInbounds",
    "panel.nodesColCredentials",
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
            <NodeRow key={node.id} node={node} />
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function Nodes() {
  const { t } = useTranslation();
  const loaded = useStore($nodesRead);
  const nodes = useStore($nodes);
  const revealed = useStore($revealedKey);
  useEffect(() => {
    void openNodes();
  }, []);
  const retry = () => void refreshNodes();

  // A refresh keeps the list (and a key not yet copied) on screen while it asks.
  if (!nodes) return loaded.state === "failed" ? <Failed failure={loaded} onRetry={retry} /> : <Loading />;
  const isRefreshing = loaded.state === "loading";
  const online = nodes.filter((node) => node.online).length;

  return (
    <>
      {revealed && <OnceKey key={revealed.key} revealed={revealed} onDismiss={dismissKey} />}
      <NodeCreateForm />
      <section className="card" aria-labelledby="nodes-list" aria-busy={isRefreshing}>
        <div className="panel-nodes__heading">
          <h2 id="nodes-list">{t("panel.nodesListTitle")}</h2>
          <button type="button" className="button button--ghost" disabled={isRefreshing} onClick={retry}>
            {t("panel.nodesRefresh")}
          </button>
        </div>
        {loaded.state === "failed" && <Failed failure={loaded} onRetry={retry} />}
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
            <NodesTable nodes={nodes} />
          </>
        )}
      </section>
      <EntriesPart />
      <ProbesPart />
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
