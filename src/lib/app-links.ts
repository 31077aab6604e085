/** The name an app gives the imported profile where its link can carry one. */
const profileName = "Kannt";

export type AppLink = { app: string; href: string };

/**
 * "Open in app" links for the common client apps, each in the form its makers publish:
 * Happ, v2RayTun, Hiddify and Streisand take the subscription URL as the link's path;
 * v2rayNG, the Clash family (FlClash, Clash Verge, Clash Meta) and sing-box take it
 * percent-encoded in `url`, since a raw `?` or `&` in it would end their own parameter.
 */
export function appLinks(subscriptionUrl: string): AppLink[] {
  const encoded = encodeURIComponent(subscriptionUrl);
  return [
    { app: "Happ", href: `happ://add/${subscriptionUrl}` },
    { app: "v2RayTun", href: `v2raytun://import/${subscriptionUrl}` },
    { app: "Hiddify", href: `hiddify://import/${subscriptionUrl}#${profileName}` },
    { app: "Streisand", href: `streisand://import/${subscriptionUrl}#${profileName}` },
    { app: "v2rayNG", href: `v2rayng://install-config?url=${encoded}#${profileName}` },
    { app: "FlClash / Clash", href: `clash://install-config?url=${encoded}&name=${profileName}` },
    { app: "sing-box", href: `sing-box://import-remote-profile?url=${encoded}#${profileName}` },
  ];
}
