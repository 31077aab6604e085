import type { Language } from "./languages";

/**
 * The seller's public details, used by the footer, the offer page and the offer PDF.
 * One place to change when the legal entity's requisites change.
 */
export const company = {
  productName: "Kannt",
  legalName: "ООО «Каннт»",
  taxNumber: "9701234567",
  supportEmail: "support@kannt.app",
  supportBot: "kannt_support_bot",
  androidStoreUrl: "https://play.google.com/store/apps/details?id=app.kannt.android",
  /** The year the service started; the copyright runs from it to the current year. */
  foundedYear: 2021,
  offerPdfPath: "/api/get/docs/oferta_kannt.pdf",
} as const;

/**
 * The seller's registration and bank requisites, which only the offer states (its page and
 * PDF, built on the server): kept apart from `company`, which every island page's footer
 * carries, so no page's JavaScript holds them (DESIGN §10 counts every byte).
 */
export const companyRequisites = {
  registrationNumber: "1237700000000",
  address: "109012, г. Москва, ул. Никольская, д. 10, офис 5",
  bankName: "АО «Т-Банк»",
  bankAccount: "40702810010000000001",
  correspondentAccount: "30101810145250000974",
  bankIdentifier: "044525974",
} as const;

/** The order of the language switchers in headers and footers (spec §2's footer order). */
export const switcherLanguages: readonly Language[] = ["ru", "en", "kk", "zh"];

/**
 * "2021–2026": the founding year to the given year. Pages are built with the build
 * year and `site.ts` moves the end to the visitor's year, so no rebuild is due on 1 January.
 */
export function copyrightYears(year: number): string {
  return year > company.foundedYear ? `${company.foundedYear}–${year}` : `${company.foundedYear}`;
}

/** Telegram deep link to the support bot; `start` carries unpadded base64url of the stored e-mail. */
export function supportBotUrl(startParameter: string): string {
  return `https://t.me/${company.supportBot}?start=${encodeURIComponent(startParameter)}`;
}
