import { fractionToPercent, percentToFraction } from "../../../core/money";
import type { Database } from "../../../db/database";
import { audit } from "../../../db/queries/operators";
import { promos } from "../../../db/queries/promos";
import { addMonths, dayMs } from "../../platform/calendar";
import type { ErrorCode } from "../../platform/errors";
import { paged } from "../../platform/paging";

/** The kinds of promo code an operator may create; support staff may create none. */
export const promoTypes = [{ type: "DISCOUNT", name: "Скидка на подписку" }] as const;

export type NewPromo = {
  promoCode: string;
  promoType: string;
  isAvailable: boolean;
  discount: number;
  expirationDate: string;
};

/** Checks every rule of spec §5 (its messages are the form's); answers the first one broken, or nothing. */
export function promoProblem(promo: NewPromo, now: number): ErrorCode | undefined {
  const code = promo.promoCode.trim().toUpperCase();
  if (code.length < 5) return "promo_code_too_short";
  if (!/^[A-Z0-9_-]+$/.test(code)) return "promo_code_invalid_characters";
  if (!promoTypes.some((type) => type.type === promo.promoType)) return "promo_type_unknown";
  const asked = fractionToPercent(promo.discount);
  const percent = Math.round(asked);
  if (Math.abs(asked - percent) > 1e-9 || percent < 20 || percent > 50 || percent % 5 !== 0)
    return "promo_discount_out_of_range";
  const expiration = Date.parse(`${promo.expirationDate}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(promo.expirationDate) || Number.isNaN(expiration))
    return "promo_validity_out_of_range";
  const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
  // A whole number of months from today, give or take a day for time zones.
  const isWholeMonths = Array.from({ length: 12 }, (_, index) => addMonths(today, index + 1)).some(
    (candidate) => Math.abs(candidate - expiration) <= dayMs,
  );
  return isWholeMonths ? undefined : "promo_validity_out_of_range";
}

/** Creates a promo code and its audit entry together; false when the code exists already. */
export function createPromo(
  database: Database,
  promo: NewPromo,
  operatorId: number,
  ip: string | null,
  now: number,
): Promise<boolean> {
  const code = promo.promoCode.trim().toUpperCase();
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
