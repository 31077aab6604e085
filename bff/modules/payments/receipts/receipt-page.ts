import { createHash } from "node:crypto";
import { company } from "../../../../core/company";
import { type TranslationKey, translator } from "../../../../core/i18n";
import type { Language } from "../../../../core/languages";
import { formatMoney } from "../../../../core/money";
import type { HistoryRow } from "../../../../db/queries/payment-history";
import { purposeOf } from "./payment-history";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] ?? "",
  );

const style =
  "body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;color:#111;background:#fff}" +
  "main{max-width:560px;margin:0 auto}dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px}" +
  "dt{color:#555}dd{margin:0}.note{color:#555;font-size:14px}@media print{body{padding:0}}";

/** The page runs no script and loads nothing; its one inline style is admitted by hash. */
export const receiptPolicy = `default-src 'none'; style-src 'sha256-${createHash("sha256")
  .update(style)
  .digest("base64")}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/** Moscow time for roubles' languages, Almaty for kk, as in the customer's mails (DESIGN §14). */
const timeZoneOf = (language: Language) => (language === "kk" ? "Asia/Almaty" : "Europe/Moscow");

export const purposeKeys: Record<ReturnType<typeof purposeOf>["purpose"], TranslationKey> = {
  trial: "cabinet.purposeTrial",
  first: "cabinet.purposeFirst",
  renewal: "cabinet.purposeRenewal",
  device: "cabinet.purposeDevice",
  refund: "cabinet.purposeRefund",
};

const methodKeys: Record<HistoryRow["method"], TranslationKey> = {
  card: "purchase.methodCard",
  sbp: "purchase.methodSbp",
};

/** A receipt is of a paid payment: paid, refunded, or with its refund still on its way (an SBP payment's). */
function statusKeyOf(payment: HistoryRow) {
  if (payment.status !== "refunded") return "cabinet.statusPaid";
  return payment.refund_in_progress === 1 ? "cabinet.statusRefundInProgress" : "cabinet.statusRefunded";
}

/**
 * The customer's receipt of one payment, built from our payment row: a printable page
 * in the customer's language. (The fiscal receipt sent to the gateway with each charge
 * is a separate document; this page can show its lines once it is kept with the payment.)
 */
export function renderReceipt(payment: HistoryRow, email: string, language: Language): string {
  const t = translator(language);
  const { purpose, months } = purposeOf(payment);
  const when = (time: number) =>
    new Intl.DateTimeFormat(language, {
      year: "numeric",
      month: "long",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: timeZoneOf(language),
      timeZoneName: "short",
    }).format(new Date(time));
  const rows: [string, string][] = [
    [t("cabinet.paymentDate"), when(payment.created_at)],
    [
      t("cabinet.receiptSeller"),
      t("footer.company", { legalName: company.legalName, taxNumber: company.taxNumber }),
    ],
    [t("cabinet.receiptCustomer"), email],
    [
      t("cabinet.paymentPurpose"),
      t(purposeKeys[purpose], { months: months ?? 1, days: payment.trial_days ?? 1 }),
    ],
    [t("cabinet.paymentAmount"), formatMoney(payment.amount, payment.currency)],
    // "Paid · Card", in the purchase's words for the method, as the cabinet's history table says it.
    [t("cabinet.paymentStatus"), `${t(statusKeyOf(payment))} · ${t(methodKeys[payment.method])}`],
    [t("cabinet.receiptTransaction"), payment.transaction_id ?? "—"],
  ];
  if (payment.refunded_amount > 0 && payment.refunded_at !== null) {
    rows.push([
      t("cabinet.purposeRefund"),
      t("cabinet.receiptRefunded", {
        amount: formatMoney(payment.refunded_amount, payment.currency),
        date: when(payment.refunded_at),
      }),
    ]);
  }
  const title = t("cabinet.receiptTitle", { number: payment.id });
  const list = rows
    .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join("");
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(`${title} · ${company.productName}`)}</title><style>${style}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><dl>${list}</dl>
<p class="note">${escapeHtml(t("cabinet.receiptNote"))}</p></main></body></html>`;
}
