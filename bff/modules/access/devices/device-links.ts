import QRCode from "qrcode";
import type { Config } from "../../../platform/config";

/**
 * The origin subscription links are issued on: SUBSCRIPTION_URL, else PUBLIC_URL; the
 * demo's default PUBLIC_URL is a guess (localhost), so there the origin the customer reached.
 */
export function subscriptionOrigin(config: Config, request: Request): string {
  if (config.isSubscriptionUrlSet || !config.isPublicUrlDefault) return config.subscriptionUrl;
  return new URL(request.url).origin;
}

/** The link client apps import (DESIGN §8): `{SUBSCRIPTION_URL}/sub/{token}`; every link is made here. */
export function subscriptionUrl(origin: string, subToken: string): string {
  return `${origin}/sub/${encodeURIComponent(subToken)}`;
}

/**
 * The link's QR code as an SVG document, drawn here so the cabinet ships no QR library.
 * Level M: the link is long, and a phone reads it off a screen, not off worn paper.
 */
export function linkQrSvg(link: string): Promise<string> {
  return QRCode.toString(link, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}

/** The device's link and its QR code, as connect and rotation answer them. */
export async function deviceLinkAnswer(origin: string, deviceId: string, subToken: string) {
  const url = subscriptionUrl(origin, subToken);
  return { success: true as const, deviceId, subscriptionUrl: url, qrSvg: await linkQrSvg(url) };
}
