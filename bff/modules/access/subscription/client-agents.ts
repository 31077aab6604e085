import type { SubscriptionFormat } from "./client-format";
import { compareVersions, versionIn } from "./client-version";

/**
 * Which client app a User-Agent names, and what it gets (DESIGN §8 "The subscription
 * answer"): the table is data, read top to bottom, first match wins. `family` is the core
 * whose REALITY client the app runs (reality-admission.ts); `coreVersion`, where the agent
 * names it, picks the sing-box config's dialect (singbox-config.ts) or an old Xray core.
 */
export type ClientFamily = "xray" | "singbox" | "mihomo";

export type ClientAgent = Readonly<{
  /** Matched against the whole User-Agent; the first group, when there is one, is the app's version. */
  pattern: RegExp;
  app: string;
  format: SubscriptionFormat;
  family: ClientFamily;
  /** The app reads `format` only from this version on; older ones get base64, which every app reads. */
  formatSince?: string;
  /** The core's version as the agent names it (first group). */
  coreVersion?: RegExp;
  /** Why the row is what it is, where the reason is not the app's name. */
  note?: string;
}>;

/** Xray-based apps rarely name their core; when one does ("Xray/25.3.6"), it is read. */
const xrayCore = /\bxray[ /]v?(\d+\.\d+(?:\.\d+)?)/i;
/** sing-box apps say "sing-box 1.12.3" inside their agent. */
const singBoxCore = /sing-box[ /]v?(\d+\.\d+(?:\.\d+)?)/i;

export const clientAgents: readonly ClientAgent[] = [
  {
    // Before the Clash and v2ray rows: its agent names both ("HiddifyNext/4.0.0 (android)
    // like ClashMeta v2ray sing-box"), and its core is sing-box, which reads sing-box JSON best.
    pattern: /hiddify/i,
    app: "Hiddify",
    format: "singbox",
    family: "singbox",
    coreVersion: singBoxCore,
  },
  {
    pattern: /^karing\/(\d+(?:\.\d+)*)/i,
    app: "karing",
    format: "singbox",
    family: "singbox",
    note: "karing imports Clash YAML and sing-box JSON, but runs sing-box: Clash YAML it converts to sing-box itself, losing what has no twin (rules, transports), so it reads sing-box JSON best.",
  },
  {
    // The official apps (SFA Android, SFI iOS, SFM macOS, SFT tvOS) carry their core's version.
    pattern: /^SF[AIMT]\/(\d+(?:\.\d+)*)/,
    app: "sing-box",
    format: "singbox",
    family: "singbox",
    coreVersion: /^SF[AIMT]\/(\d+\.\d+(?:\.\d+)?)/,
  },
  { pattern: /sing-?box/i, app: "sing-box", format: "singbox", family: "singbox", coreVersion: singBoxCore },
  { pattern: /flclash/i, app: "FlClash", format: "clash", family: "mihomo" },
  {
    pattern: /^stash\/(\d+(?:\.\d+)*)/i,
    app: "Stash",
    format: "clash",
    family: "mihomo",
    note: "Stash runs its own closed core that reads Clash YAML; its REALITY client's version is unknown, so it is held to Mihomo's.",
  },
  { pattern: /clash-verge/i, app: "Clash Verge", format: "clash", family: "mihomo" },
  { pattern: /mihomo|clash/i, app: "Mihomo", format: "clash", family: "mihomo" },
  {
    // Happ reads Xray JSON subscriptions (its docs' JSON example with `remarks` and `meta`)
    // since 1.63.1 (remnawave-json's switch); older builds, base64.
    pattern: /^happ\/(\d+(?:\.\d+)*)/i,
    app: "Happ",
    format: "xray",
    family: "xray",
    formatSince: "1.63.1",
    coreVersion: xrayCore,
  },
  { pattern: /^streisand/i, app: "Streisand", format: "xray", family: "xray", coreVersion: xrayCore },
  {
    pattern: /^v2box/i,
    app: "V2Box",
    format: "xray",
    family: "xray",
    coreVersion: xrayCore,
    note: "Remnawave and remnawave-json list V2Box among the apps that read Xray JSON subscriptions (x-ui issue #1110 said it could not yet in March 2024).",
  },
  {
    // A JSON array of complete configs, each with `remarks`: v2rayNG pull request #2827
    // (2024); remnawave-json sends it from 1.8.29 on.
    pattern: /^v2rayng\/(\d+(?:\.\d+)*)/i,
    app: "v2rayNG",
    format: "xray",
    family: "xray",
    formatSince: "1.8.29",
    coreVersion: xrayCore,
  },
  {
    // The same array as custom configs (v2rayN issues #4846, #9746: "already there"); from 6.40 on.
    pattern: /^v2rayn\/(\d+(?:\.\d+)*)/i,
    app: "v2rayN",
    format: "xray",
    family: "xray",
    formatSince: "6.40",
    coreVersion: xrayCore,
  },
  {
    pattern: /^v2raytun/i,
    app: "v2RayTun",
    format: "base64",
    family: "xray",
    coreVersion: xrayCore,
    note: "v2RayTun documents share links only; a JSON body it does not read would leave it with no servers.",
  },
];

/** What a fetch's agent is: browsers, curl, no agent and apps not named above get base64, as Xray apps. */
export type ClientProfile = Readonly<{
  app?: string;
  format: SubscriptionFormat;
  family: ClientFamily;
  appVersion?: string;
  coreVersion?: string;
}>;

const unknownClient: ClientProfile = { format: "base64", family: "xray" };

export function clientOf(userAgent: string | null): ClientProfile {
  const agent = userAgent ?? "";
  const row = clientAgents.find((candidate) => candidate.pattern.test(agent));
  if (!row) return unknownClient;
  const appVersion = versionIn(agent, row.pattern);
  const isTooOld =
    row.formatSince !== undefined &&
    appVersion !== undefined &&
    compareVersions(appVersion, row.formatSince) < 0;
  return {
    app: row.app,
    format: isTooOld ? "base64" : row.format,
    family: row.family,
    appVersion,
    coreVersion: versionIn(agent, row.coreVersion),
  };
}

/** The body an app understands, from its User-Agent. */
export const formatForUserAgent = (userAgent: string | null): SubscriptionFormat =>
  clientOf(userAgent).format;
