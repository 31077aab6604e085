import QRCode from "qrcode";

/** Spec §9: the invite QR is 256 px with a margin of 4 at error correction level H. */
export const referralQrOptions = { width: 256, margin: 4, errorCorrectionLevel: "H" } as const;

/** The invite link: the site root with the referral code as `token` (the landing stores it as `promo`). */
export function inviteLink(origin: string, code: string): string {
  return `${origin}/?token=${encodeURIComponent(code)}`;
}

export async function renderReferralQr(link: string): Promise<Uint8Array<ArrayBuffer>> {
  // qrcode floors modules × (width ÷ modules), which can land on 255; half a pixel
  // more keeps the image at exactly 256 px whatever the symbol's size.
  const width = referralQrOptions.width + 0.5;
  return new Uint8Array(await QRCode.toBuffer(link, { ...referralQrOptions, width, type: "png" }));
}
