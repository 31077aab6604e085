/**
 * The seller's public details, used by the footer, the offer page and the offer PDF.
 * One place to change when the legal entity's requisites change.
 */
export const company = {
  productName: "Kannt",
  legalName: "ООО «Каннт»",
  taxNumber: "9701234567",
  registrationNumber: "1237700000000",
  address: "109012, г. Москва, ул. Никольская, д. 10, офис 5",
  bankName: "АО «Т-Банк»",
  bankAccount: "40702810010000000001",
  correspondentAccount: "30101810145250000974",
  bankIdentifier: "044525974",
  supportEmail: "support@kannt.app",
  supportBot: "kannt_support_bot",
  androidStoreUrl: "https://play.google.com/store/apps/details?id=app.kannt.android",
  windowsInstallerPath: "/downloads/KanntSetup.exe",
  copyrightYears: "2021–2025",
  offerPdfPath: "/api/get/docs/oferta_kannt.pdf",
} as const;

/** Telegram deep link to the support bot; `start` carries base64 of the stored e-mail. */
export function supportBotUrl(startParameter: string): string {
  return `https://t.me/${company.supportBot}?start=${encodeURIComponent(startParameter)}`;
}
