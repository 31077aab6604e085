import QRCode from "qrcode";

/** As the gateway draws an SBP QR for a desktop: 256 px, a margin of 4, error correction H. */
export const sbpQrImageOptions = { width: 256, margin: 4, errorCorrectionLevel: "H" } as const;

/** The QR of `url` as base64 PNG without a `data:` prefix, as `Model.QrImage` carries it. */
export async function renderSbpQrImage(url: string): Promise<string> {
  // qrcode floors modules × (width ÷ modules), which can land on 255; half a pixel more
  // keeps the image at exactly 256 px whatever the symbol's size (as referral-qr.ts does).
  const width = sbpQrImageOptions.width + 0.5;
  const png = await QRCode.toBuffer(url, { ...sbpQrImageOptions, width, type: "png" });
  return png.toString("base64");
}
