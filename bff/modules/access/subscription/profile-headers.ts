import { company } from "../../../../core/company";
import type { SubscriptionRow } from "../../../../db/queries/subscriptions";
import { formatFiles, type SubscriptionFormat } from "./client-format";
import { happRoutingHeader } from "./routing/happ-routing";
import { base64Of } from "./share-links";

/** Hours between the apps' refreshes of the subscription. */
export const updateIntervalHours = 12;

/** Happ shows at most 25 characters of a profile's title. */
const titleLimit = 25;

/**
 * A header value in the form the apps read: plain when it is printable ASCII, else
 * `base64:` and the UTF-8 text's base64 (Hiddify's and Happ's form; HTTP header values are
 * bytes, so "·" or Cyrillic cannot go in as they are).
 */
export function headerText(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `base64:${base64Of(text)}`;
}

/** The profile's title the app shows: the product and the device. */
export function profileTitle(deviceName: string): string {
  const title = `${company.productName} · ${deviceName}`;
  return Array.from(title).slice(0, titleLimit).join("").trim();
}

/** Whether the device has access, the subscription's has ended, or the device's link is not in use. */
export type DeviceAccess = "open" | "ended" | "unused";

/**
 * Until when access is paid for, in unix seconds, as `expire` tells the apps (DESIGN §8):
 * the end of the period a CANCELED subscription runs to, and the date an ACTIVE one is paid
 * to (its next charge), never the dunning grace the nodes allow beyond it. Once access has
 * ended, the moment it ended: a date in the past, which the apps show as expired, where 0
 * reads as "never expires". 0 when there is no such date: never paid, or a link not in use.
 */
export function paidUntilSeconds(subscription: SubscriptionRow | undefined, access: DeviceAccess): number {
  if (access === "unused" || !subscription) return 0;
  const until =
    access === "ended" || subscription.status === "CANCELED"
      ? subscription.end_date
      : (subscription.end_date ?? subscription.next_charge_at);
  return until === null ? 0 : Math.floor(until / 1000);
}

export type ProfileFacts = {
  format: SubscriptionFormat;
  title: string;
  upload: number;
  download: number;
  expireSeconds: number;
  cabinetUrl: string;
  /** Shown by Happ and v2RayTun above the server list; set when there is no access. */
  announce?: string;
  /** The subscription's new host, when the fetch came on another one (Happ's `new-domain`). */
  newDomain?: string;
  /** HAPP_PROVIDER_ID: Happ reads `new-domain` only beside it. */
  providerId?: string;
};

/** The formats Happ may read (share links, Xray JSON): they carry its routing profile. */
const happFormats: readonly SubscriptionFormat[] = ["base64", "xray"];

export function profileHeaders(facts: ProfileFacts): Record<string, string> {
  const file = formatFiles[facts.format];
  const headers: Record<string, string> = {
    "content-type": file.contentType,
    "content-disposition": `attachment; filename="${file.fileName}"`,
    "cache-control": "no-store",
    "subscription-userinfo": `upload=${facts.upload}; download=${facts.download}; total=0; expire=${facts.expireSeconds}`,
    "profile-title": headerText(facts.title),
    "profile-update-interval": String(updateIntervalHours),
    // The bare bot link (the bot asks who is writing): the subscription URL travels
    // (clipboard, QR codes, other apps), so it does not carry the customer's e-mail in the
    // start parameter as the cabinet's support link does.
    "support-url": `https://t.me/${company.supportBot}`,
    "profile-web-page-url": facts.cabinetUrl,
  };
  if (facts.announce) headers.announce = headerText(facts.announce);
  if (happFormats.includes(facts.format)) headers.routing = happRoutingHeader();
  // Happ's "change the subscription's domain": the rest of the URL stays (happ_su
  // dev-docs/app-management.md); the value is the host alone.
  if (facts.newDomain) headers["new-domain"] = facts.newDomain;
  if (facts.providerId) headers.providerid = facts.providerId;
  return headers;
}
