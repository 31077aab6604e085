import QRCode from "qrcode";

/** The link client apps import (DESIGN §8): `{PUBLIC_URL}/sub/{token}`. */
export function subscriptionUrl(publicUrl: string, subToken: string): string {
  return `${publicUrl}/sub/${encodeURIComponent(subToken)}`;
}

/**
 * The link's QR code as an SVG document, drawn here so the cabinet ships no QR library.
 * Level M: the link is long, and a phone reads it off a screen, not off worn paper.
 */
export function linkQrSvg(link: string): Promise<string> {
  return QRCode.toString(link, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}

/** The device's link and its QR code, as connect and rotation answer them. */
export async function deviceLinkAnswer(publicUrl: string, deviceId: string, subToken: string) {
  const url = subscriptionUrl(publicUrl, subToken);
  return { success: true as const, deviceId, subscriptionUrl: url, qrSvg: await linkQrSvg(url) };
}
