/** The three bodies a subscription can answer with (DESIGN §8). */
export const subscriptionFormats = ["base64", "singbox", "clash"] as const;
export type SubscriptionFormat = (typeof subscriptionFormats)[number];

export const isSubscriptionFormat = (value: string): value is SubscriptionFormat =>
  (subscriptionFormats as readonly string[]).includes(value);

/**
 * The body an app understands, from its User-Agent. Hiddify comes first: its agent also
 * names ClashMeta and v2ray ("HiddifyNext/… like ClashMeta v2ray sing-box"), and it reads
 * sing-box JSON best. Everything not named here (Happ, v2RayTun, v2rayNG, Streisand,
 * browsers, no agent) gets the base64 list of share links, which every app reads.
 */
export function formatForUserAgent(userAgent: string | null): SubscriptionFormat {
  const agent = (userAgent ?? "").toLowerCase();
  if (agent.includes("hiddify") || agent.includes("sing-box") || agent.includes("singbox")) return "singbox";
  if (/clash|mihomo|flclash|stash/.test(agent)) return "clash";
  return "base64";
}

/** How each format is served: its media type and the file name apps keep it under. */
export const formatFiles: Record<SubscriptionFormat, { contentType: string; fileName: string }> = {
  base64: { contentType: "text/plain; charset=utf-8", fileName: "kannt.txt" },
  singbox: { contentType: "application/json; charset=utf-8", fileName: "kannt.json" },
  clash: { contentType: "text/yaml; charset=utf-8", fileName: "kannt.yaml" },
};
