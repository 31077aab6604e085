import type {
  AllowEntry,
  AllowListResponse,
  ConnectionEvent,
  NodeReport,
  TrafficSample,
} from "../../agent/contract/node-api";
import type { createApp } from "../../bff/app";
import type { AppContext } from "../../bff/context";
import { seedEntries } from "../../bff/modules/access/entries/entry-seeding";
import { createNode } from "../../bff/modules/access/nodes/node-keys";
import { randomToken } from "../../bff/platform/random";
import { postJson, request } from "./app";
import { asCustomer, fixture, type SignedIn, signIn } from "./customers";
import { cards, order, payWithCard } from "./payments";

type App = ReturnType<typeof createApp>;

/** A new node's `Authorization` header (its key as `npm run operator -- node` prints it). */
export async function nodeHeaders(context: AppContext, name: string) {
  return { authorization: `Bearer ${await createNode(context.database, name, context.clock.now())}` };
}

/** The node's allow-list call; `since` and `wait` as the agent sends them. */
export async function allowList(
  app: App,
  headers: Record<string, string>,
  query: { since?: number; wait?: number } = {},
): Promise<AllowListResponse> {
  const search = new URLSearchParams(
    Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, String(value)]),
  ).toString();
  const response = await app.handle(
    request(`/api/nodes/allowlist${search ? `?${search}` : ""}`, { headers }),
  );
  if (response.status !== 200) throw new Error(`allowlist: ${response.status} ${await response.text()}`);
  return (await response.json()) as AllowListResponse;
}

export async function sendEvents(
  app: App,
  headers: Record<string, string>,
  events: { batchId?: string; periodMs?: number; traffic?: TrafficSample[]; connections?: ConnectionEvent[] },
) {
  return app.handle(postJson("/api/nodes/events", { traffic: [], connections: [], ...events }, headers));
}

export const sampleReport: NodeReport = {
  core: "xray",
  coreVersion: "25.6.8",
  host: "nl1.example.net",
  inbounds: [
    {
      tag: "kannt-reality",
      protocol: "vless",
      port: 443,
      network: "tcp",
      security: "reality",
      flow: "xtls-rprx-vision",
      sni: "www.example.com",
      fingerprint: "chrome",
      publicKey: "Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw",
      shortId: "6ba85179e30d4fc2",
    },
  ],
  appliedVersion: 0,
  credentials: 0,
};

/** The entry with credential `id`, if the list has it. */
export const entryWithId = (list: { entries: AllowEntry[] }, id: string) =>
  list.entries.find((entry) => entry.id === id);

/** A paying customer with one device connected: its row id, credential, node tag and subscription URL's path. */
export async function customerWithDevice(app: App, context: AppContext, email: string) {
  const customer = await signIn(app, email);
  const widget = await order(app, customer, 1, 30);
  const paid = await payWithCard(app, widget.invoiceId, cards.success);
  if (!paid.success) throw new Error(`payment: ${JSON.stringify(paid)}`);
  const response = await app.handle(asCustomer(customer, "/api/profile/devices/connect"));
  const { deviceId, subscriptionUrl } = (await response.json()) as {
    deviceId: string;
    subscriptionUrl: string;
  };
  const row = await context.database.get<{ id: number; credential: string; node_tag: string }>(
    "SELECT id, credential, node_tag FROM devices WHERE device_id = ?",
    [deviceId],
  );
  if (!row) throw new Error("the connected device is not stored");
  return {
    customer,
    userId: Number(widget.accountId.replace("customer-", "")),
    device: {
      deviceId,
      rowId: Number(row.id),
      id: row.credential,
      tag: row.node_tag,
      subscriptionPath: new URL(subscriptionUrl).pathname,
    },
  };
}

/** The status of each customer call that shows node traffic: the cabinet, its payments, the export and the app's subscription URL. */
export async function customerCallStatuses(app: App, customer: SignedIn, subscriptionPath: string) {
  const statuses: Record<string, number> = {};
  for (const path of ["/api/profile", "/api/profile/payments", "/api/profile/export"])
    statuses[path] = (await app.handle(asCustomer(customer, path))).status;
  statuses["/sub"] = (await app.handle(request(subscriptionPath))).status;
  return statuses;
}

export const allAnswered = {
  "/api/profile": 200,
  "/api/profile/payments": 200,
  "/api/profile/export": 200,
  "/sub": 200,
};

/**
 * A node as its agent would have reported itself (host, inbounds, last seen by the wall
 * clock), written straight to its row, with the entries its first report seeds.
 */
export async function reportedNode(
  database: AppContext["database"],
  node: {
    name: string;
    host: string | null;
    inbounds: object[];
    disabledAt?: number | null;
    lastSeenAt?: number;
  },
  now: number,
) {
  const key = await createNode(database, node.name, now);
  await database.run(
    "UPDATE vpn_nodes SET host = ?, inbounds = ?, disabled_at = ?, last_seen_at = ? WHERE name = ?",
    [
      node.host,
      JSON.stringify(node.inbounds),
      node.disabledAt ?? null,
      node.lastSeenAt ?? Date.now(),
      node.name,
    ],
  );
  const row = await database.get<{ id: number }>("SELECT id FROM vpn_nodes WHERE name = ?", [node.name]);
  await seedEntries(database, Number(row?.id), node.inbounds as { tag: string }[], now);
  return key;
}

/**
 * A customer with access (an ACTIVE `tariff`-month subscription, a fixture) and one device
 * with its credential on the nodes: the device's subscription token.
 */
export async function subscribedDeviceToken(
  app: App,
  database: AppContext["database"],
  email: string,
  tariff: 1 | 3 | 6 | 12 = 1,
): Promise<string> {
  const { userId } = await fixture(app, { email, status: "ACTIVE", devices: 1, tariff });
  const token = randomToken(24);
  await database.run("UPDATE devices SET credential = ?, node_tag = ?, sub_token = ? WHERE user_id = ?", [
    crypto.randomUUID(),
    `d${userId}`,
    token,
    userId,
  ]);
  return token;
}
