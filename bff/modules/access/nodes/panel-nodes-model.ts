import { t } from "elysia";
import { rowId } from "../../../platform/schemas";

/** An inbound as the node's agent last reported it. */
const inbound = t.Object({
  tag: t.String(),
  protocol: t.String(),
  port: t.Number(),
  network: t.String(),
  security: t.String(),
});
/** A node as the panel's Nodes screen shows it; never its key. */
export const node = t.Object({
  id: t.Number(),
  name: t.String(),
  // The address client apps dial, as the agent last reported it.
  host: t.Nullable(t.String()),
  online: t.Boolean({ description: "Enabled and heard from within the last 30 s" }),
  lastSeenAt: t.Nullable(t.String({ description: "ISO 8601; null: never reported" })),
  core: t.Nullable(t.String()),
  coreVersion: t.Nullable(t.String()),
  coreState: t.Nullable(
    t.Union([t.Literal("up"), t.Literal("down")], {
      description:
        "The core's state as the agent last reported it: down when its API does not answer or refuses calls; null: never reported",
    }),
  ),
  inbounds: t.Array(inbound),
  credentials: t.Object({
    held: t.Number({ description: "Credentials the node's core holds, as it last reported" }),
    expected: t.Number({ description: "Credentials on the allow-list now" }),
  }),
  appliedVersion: t.Number(),
  syncLagSeconds: t.Nullable(
    t.Number({
      description:
        "How long the oldest allow-list change the node has not applied has waited; 0: up to date; null: its agent never connected",
    }),
  ),
  // Bytes through the node this UTC day (of the billing clock), all devices.
  trafficToday: t.Object({ upload: t.Number(), download: t.Number() }),
  disabled: t.Boolean(),
  createdAt: t.String(),
  oldKeyLastUsedAt: t.Nullable(
    t.String({
      description:
        "When an agent last called with the key the last rotation replaced (ISO 8601): it still runs with it; null: none since",
    }),
  ),
  refusedAgent: t.Nullable(
    t.Object(
      {
        at: t.String({ description: "ISO 8601, the last refusal" }),
        address: t.Nullable(t.String({ description: "the address it called from" })),
      },
      { description: "A second agent with this node's key, refused within the last day; null: none" },
    ),
  ),
});

export const nodeList = t.Object({ nodes: t.Array(node) });
export const newNodeBody = t.Object({ name: t.String({ maxLength: 256 }) });
export const withNode = t.Object({ success: t.Literal(true), node });
/** A node and its key: the key is shown this once, stored only hashed. */
export const withKey = t.Object({
  success: t.Literal(true),
  node,
  key: t.String({ description: "The node's NODE_KEY: shown this once, stored only hashed" }),
});
export const nodeParams = t.Object({ id: rowId });
