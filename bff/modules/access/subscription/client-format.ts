/**
 * The four bodies a subscription can answer with (DESIGN §8): base64 share links, sing-box
 * JSON, Mihomo (Clash) YAML and Xray JSON. Which app gets which is client-agents.ts.
 */
export const subscriptionFormats = ["base64", "singbox", "clash", "xray"] as const;
export type SubscriptionFormat = (typeof subscriptionFormats)[number];

export const isSubscriptionFormat = (value: string): value is SubscriptionFormat =>
  (subscriptionFormats as readonly string[]).includes(value);

/** How each format is served: its media type and the file name apps keep it under. */
export const formatFiles: Record<SubscriptionFormat, { contentType: string; fileName: string }> = {
  base64: { contentType: "text/plain; charset=utf-8", fileName: "kannt.txt" },
  singbox: { contentType: "application/json; charset=utf-8", fileName: "kannt.json" },
  clash: { contentType: "text/yaml; charset=utf-8", fileName: "kannt.yaml" },
  xray: { contentType: "application/json; charset=utf-8", fileName: "kannt-xray.json" },
};
