import { dayMs } from "../../../../core/calendar";
import { translator } from "../../../../core/i18n";
import { devices, type TokenDevice } from "../../../../db/queries/devices";
import { vpnNodes } from "../../../../db/queries/nodes";
import { subscriptions } from "../../../../db/queries/subscriptions";
import type { AppContext } from "../../../context";
import { accessEndsAt } from "../access-rule";
import { clashConfig } from "./clash-config";
import { formatForUserAgent, type SubscriptionFormat } from "./client-format";
import type { DeviceReport } from "./device-report";
import { recordFetch } from "./first-fetch";
import { paidUntilSeconds, profileHeaders, profileTitle } from "./profile-headers";
import { noteCredential, noteEntry, type ServerEntry, serverEntries } from "./server-entries";
import { shareLinksBody } from "./share-links";
import { isSingBoxSupported, singBoxConfig } from "./singbox-config";

export type SubscriptionFetch = {
  token: string;
  userAgent: string | null;
  /** `?format=`: a person testing asks for one body whatever their agent. */
  format?: SubscriptionFormat;
  report: DeviceReport;
  /** A GET completes the device's record; a HEAD only looks. */
  isFetch: boolean;
};

export type SubscriptionAnswer = { body: string; headers: Record<string, string> };

/** Days since the epoch (UTC) of the first day of `now`'s month: device_traffic's `day`. */
export function monthStartDay(now: number): number {
  const date = new Date(now);
  return Math.floor(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / dayMs);
}

/**
 * Links name only nodes that reported within a day (wall clock): a node silent that long
 * is gone or broken, and an app would keep trying it. Agents report every 10 s, so an
 * outage of the product itself does not empty the list for long.
 */
const reportedWithinMs = dayMs;

/** A device whose credential is on the nodes: active, attached, of an account not deleted. */
const isInUse = (device: TokenDevice) =>
  device.is_active === 1 &&
  device.detached_at === null &&
  device.deleted_at === null &&
  device.credential !== null;

function bodyOf(format: SubscriptionFormat, uuid: string, entries: ServerEntry[]): string {
  if (format === "singbox") return singBoxConfig(uuid, entries);
  if (format === "clash") return clashConfig(uuid, entries);
  return shareLinksBody(uuid, entries);
}

/**
 * `GET /sub/{token}` (DESIGN §8): the device's servers in the body its app reads, with the
 * profile headers. Without access (ended, refunded, the device unlinked) the body holds
 * only a note saying where to renew. Undefined: no device has this token.
 */
export async function subscriptionAnswer(
  context: Pick<AppContext, "database" | "clock" | "config">,
  fetch: SubscriptionFetch,
): Promise<SubscriptionAnswer | undefined> {
  const { database, clock, config } = context;
  const device = await devices.byToken(database, fetch.token);
  if (!device) return undefined;
  const now = clock.now();
  const subscription = await subscriptions.current(database, device.user_id);
  const credential = isInUse(device) ? device.credential : null;
  const isPaid = accessEndsAt(subscription, now) !== null;
  const hasAccess = credential !== null && isPaid;
  const isAttached = device.detached_at === null && device.deleted_at === null;
  const deviceName =
    fetch.isFetch && isAttached ? await recordFetch(database, device, fetch.report, now) : device.device_name;

  const language = device.language;
  const cabinetUrl = `${config.publicUrl}/profile`;
  const format = fetch.format ?? formatForUserAgent(fetch.userAgent);
  let entries: ServerEntry[] = [];
  if (hasAccess) {
    const all = serverEntries(await vpnNodes.reportedSince(database, Date.now() - reportedWithinMs));
    entries = format === "singbox" ? all.filter((entry) => isSingBoxSupported(entry.inbound)) : all;
  }
  const words = translator(language);
  const announce = hasAccess ? undefined : words("appSubscription.ended", { url: cabinetUrl });
  const notes = announce ?? words("appSubscription.noServers");
  const isNoteOnly = entries.length === 0;
  const body = isNoteOnly
    ? bodyOf(format, noteCredential, [noteEntry(notes)])
    : bodyOf(format, credential ?? noteCredential, entries);

  const traffic = await devices.trafficSince(database, device.id, monthStartDay(now));
  const headers = profileHeaders({
    format,
    title: profileTitle(deviceName || words("appSubscription.newDevice")),
    upload: traffic.upload,
    download: traffic.download,
    expireSeconds: paidUntilSeconds(subscription, hasAccess ? "open" : isPaid ? "unused" : "ended"),
    cabinetUrl,
    announce,
  });
  return { body, headers };
}
