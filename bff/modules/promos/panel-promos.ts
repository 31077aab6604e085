import { type TranslationKey, translator } from "../../../core/i18n";
import type { Language } from "../../../core/languages";
import { fractionToPercent, percentToFraction } from "../../../core/money";
import { promoTypes, storedPromoCode } from "../../../core/promo-rules";
import type { Database } from "../../../db/database";
import { audit } from "../../../db/queries/operators";
import { promos } from "../../../db/queries/promos";
import { paged } from "../../platform/paging";

const promoTypeNames: Record<(typeof promoTypes)[number]["type"], TranslationKey> = {
  DISCOUNT: "panel.promoTypeDiscount",
};

/** The promo kinds with their names (spec §6: type and name), in the operator's language. */
export function promoTypesIn(language: Language) {
  const t = translator(language);
  return promoTypes.map(({ type }) => ({ type, name: t(promoTypeNames[type]) }));
}

export type NewPromo = {
  promoCode: string;
  promoType: string;
  isAvailable: boolean;
  discount: number;
  expirationDate: string;
};

/** Creates a promo code and its audit entry together; false when the code exists already. */
export function createPromo(
  database: Database,
  promo: NewPromo,
  operatorId: number,
  ip: string | null,
  now: number,
): Promise<boolean> {
  const code = storedPromoCode(promo.promoCode);
  return database.transaction(async () => {
    const inserted = await promos.insert(
      database,
      {
        code,
        type: promo.promoType,
        isAvailable: promo.isAvailable,
        discountPercent: Math.round(fractionToPercent(promo.discount)),
        expirationDate: promo.expirationDate,
      },
      operatorId,
      now,
    );
    if (inserted.changes === 0) return false;
    await audit.record(
      database,
      { operatorId, action: "promo.create", details: { ...promo, promoCode: code }, ipAddress: ip },
      now,
    );
    return true;
  });
}

export async function availablePromos(
  database: Database,
  number: number,
  size: number,
  now: number,
  codePart?: string,
) {
  const today = new Date(now).toISOString().slice(0, 10);
  // Codes are stored upper-case; the part is matched literally (LIKE's wildcards escaped).
  const like = `%${(codePart ?? "")
    .trim()
    .toUpperCase()
    .replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const total = await promos.availableCount(database, today, like);
  const rows = await promos.available(database, today, like, size, number * size);
  return paged(
    rows.map((row) => ({
      id: row.id,
      promoCode: row.promo_code,
      promoType: row.promo_type,
      isAvailable: row.is_available === 1,
      discount: percentToFraction(row.discount_percent),
      expirationDate: row.expiration_date,
    })),
    number,
    size,
    total,
  );
}
