import { dayMs } from "../../../../core/calendar";
import { translator } from "../../../../core/i18n";
import type { Language } from "../../../../core/languages";
import type { Database } from "../../../../db/database";
import { devices } from "../../../../db/queries/devices";
import { retiredLinks } from "../../../../db/queries/retired-links";
import { type SubscriptionRow, subscriptions } from "../../../../db/queries/subscriptions";
import type { AppContext } from "../../../context";
import { confirmPending } from "../devices/device-pending";
import { linkHash } from "../devices/retired-link";
import { publishedEntries } from "../entries/published-entries";
import { bodyOf, entriesFor } from "./answer-body";
import { clientOf } from "./client-agents";
import type { SubscriptionFormat } from "./client-format";
import type { DeviceReport } from "./device-report";
import { recordFetch } from "./first-fetch";
import { isRetryingPayment, type LinkStanding, placeholderKeys, standingOf } from "./link-standing";
import { type DeviceAccess, paidUntilSeconds, profileHeaders, profileTitle } from "./profile-headers";
import { noteCredential, noteEntry, type ServerEntry } from "./server-entries";
import { newDomainFor } from "./subscription-domain";

export type SubscriptionFetch = {
  token: string;
  userAgent: string | null;
  /** `?format=`: a person testing asks for one body whatever their agent. */
  format?: SubscriptionFormat;
  report: DeviceReport;
  /** A GET completes the device's record; a HEAD only looks. */
  isFetch: boolean;
  /** The host the fetch came to (its URL's, the Host header): an old domain is told the new one. */
  host?: string;
};

export type SubscriptionAnswer = { body: string; headers: Record<string, string> };

/** Days since the epoch (UTC) of the first day of `now`'s month: device_traffic's `day`. */
export function monthStartDay(now: number): number {
  const date = new Date(now);
  return Math.floor(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / dayMs);
}

/** The device a token names, live or retired, with what its answer needs. */
type FoundLink = {
  deviceId: number;
  deviceName: string;
  language: Language;
  standing: LinkStanding;
  subscription?: SubscriptionRow;
  credential?: string;
};

async function findLink(
  database: Database,
  fetch: SubscriptionFetch,
  now: number,
): Promise<FoundLink | undefined> {
  const device = await devices.byToken(database, fetch.token);
  if (!device) {
    const retired = await retiredLinks.byHash(database, linkHash(fetch.token));
    if (!retired) return undefined;
    const { device_id: deviceId, device_name: deviceName, language, reason } = retired;
    return { deviceId, deviceName, language, standing: reason };
  }
  const subscription = await subscriptions.current(database, device.user_id);
  let standing = await standingOf(database, device, subscription, now);
  // A pending device's first fetch is its use: it takes its slot for good (DESIGN §8).
  if (fetch.isFetch && standing === "open" && device.pending_until !== null)
    standing = (await confirmPending(database, device.user_id, device.id)) ? "open" : "beyondSlots";
  const deviceName =
    fetch.isFetch && standing !== "removed"
      ? await recordFetch(database, device, fetch.report, now)
      : device.device_name;
  return {
    deviceId: device.id,
    deviceName,
    language: device.language,
    standing,
    subscription,
    credential: device.credential ?? undefined,
  };
}

const accessOf = (standing: LinkStanding): DeviceAccess =>
  standing === "open" ? "open" : standing === "ended" || standing === "paymentFailed" ? "ended" : "unused";

/**
 * `GET /sub/{token}` (DESIGN §8): the device's servers in the body its app reads, with the
 * profile headers. Without access (ended, payment failed, the device beyond its slots,
 * unlinked, its link replaced) the body holds only a placeholder whose name says why and
 * where to go, in the customer's language, and `announce` says the same. Undefined: no
 * device has or had this token.
 */
export async function subscriptionAnswer(
  context: Pick<AppContext, "database" | "clock" | "config">,
  fetch: SubscriptionFetch,
): Promise<SubscriptionAnswer | undefined> {
  const { database, clock, config } = context;
  const now = clock.now();
  const link = await findLink(database, fetch, now);
  if (!link) return undefined;
  const { standing, subscription } = link;

  const words = translator(link.language);
  const cabinetUrl = `${config.publicUrl}/profile`;
  const client = clientOf(fetch.userAgent);
  const format = fetch.format ?? client.format;
  let entries: ServerEntry[] = [];
  if (standing === "open") {
    // The operator's entries of nodes that serve, without those found down (entries/).
    const all = await publishedEntries(database, subscription?.tariff_months, Date.now());
    entries = entriesFor(format, client, all);
  }
  const placeholder = standing === "open" ? undefined : words(placeholderKeys[standing], { url: cabinetUrl });
  const announce =
    placeholder ??
    (isRetryingPayment(subscription)
      ? words("appSubscription.paymentRetrying", { url: cabinetUrl })
      : undefined);
  const body =
    entries.length === 0 || !link.credential
      ? bodyOf(format, client, noteCredential, [noteEntry(placeholder ?? words("appSubscription.noServers"))])
      : bodyOf(format, client, link.credential, entries);

  const traffic = await devices.trafficSince(database, link.deviceId, monthStartDay(now));
  const headers = profileHeaders({
    format,
    title: profileTitle(link.deviceName || words("appSubscription.newDevice")),
    upload: traffic.upload,
    download: traffic.download,
    expireSeconds: paidUntilSeconds(subscription, accessOf(standing)),
    cabinetUrl,
    announce,
    newDomain: newDomainFor(config, fetch.host),
    providerId: config.happProviderId,
  });
  return { body, headers };
}
