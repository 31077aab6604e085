import type {
  AllowEntry,
  AllowListResponse,
  ConnectionEvent,
  NodeReport,
  TrafficSample,
} from "../../agent/contract/node-api";
import type { App } from "../../bff/app";
import type { AppContext } from "../../bff/context";
import { seedEntries } from "../../bff/modules/access/entries/entry-seeding";
import { createNode } from "../../bff/modules/access/nodes/node-keys";
import { randomToken } from "../../bff/platform/random";
import { apiOf, dataOf, identityOf, sessionOf } from "./api";
import { postJson, request } from "./app";
import { fixture, type SignedIn, signIn } from "./customers";
import { cards, order, payWithCard } from "./payments";

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
  // A URL carries the numbers as text; a missing one is left out of it.
  const { since, wait } = query;
  return dataOf(
    apiOf(app).nodes.allowlist.get({ headers, query: { since: since?.toString(), wait: wait?.toString() } }),
  );
}

/** A batch of the node's events through the typed client, empty lists where the test names none. */
export function postEvents(
  app: App,
  headers: Record<string, string>,
  events: { batchId?: string; periodMs?: number; traffic?: TrafficSample[]; connections?: ConnectionEvent[] },
) {
  return apiOf(app).nodes.events.post({ traffic: [], connections: [], ...events }, { headers });
}

/** The same call answered as the raw response, for the tests that read it as such. */
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
  const { deviceId, subscriptionUrl } = await dataOf(
    apiOf(app).profile.devices.connect.post(identityOf(customer), sessionOf(customer)),
  );
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
  const { profile } = apiOf(app);
  const me = identityOf(customer);
  const session = sessionOf(customer);
  return {
    "/api/profile": (await profile.post(me, session)).status,
    "/api/profile/payments": (await profile.payments.post(me, session)).status,
    "/api/profile/export": (await profile.export.post(me, session)).status,
    // The app's subscription link answers text, not JSON: fetched as the app fetches it.
    "/sub": (await app.handle(request(subscriptionPath))).status,
  };
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
