import type { Config } from "../../../platform/config";

/**
 * A second subscription domain (DESIGN §8): links are issued on SUBSCRIPTION_URL, and
 * `/sub/{token}` answers on every host the server is reached under, so links handed out
 * on an older domain keep working. A fetch on a host other than SUBSCRIPTION_URL's is told
 * that host in Happ's `new-domain` header, which replaces the domain of the subscription's
 * URL in the app and keeps the rest of it. Only a configured origin is announced: the
 * demo's default is a guess (localhost).
 */
export function newDomainFor(config: Config, host: string | undefined): string | undefined {
  if (host === undefined || (!config.isSubscriptionUrlSet && config.isPublicUrlDefault)) return undefined;
  const target = new URL(config.subscriptionUrl).host;
  return host.toLowerCase() === target.toLowerCase() ? undefined : target;
}
