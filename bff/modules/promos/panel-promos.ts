import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";
import { audit } from "../../../db/queries/operators";
import { addMonths, dayMs } from "../../platform/calendar";
import { paged } from "../../platform/paging";

/** The kinds of promo code an operator may create; support staff may create none. */
export const promoTypes = [{ type: "DISCOUNT", name: "Скидка на подписку" }] as const;

/** Spec §5 messages, the same the form shows. */
export const promoMessages = {
  code: "promo code must be 5 or more characters",
  characters: "promo code may contain only A-Z, 0-9, underscore and hyphen",
  discount: "discount must be 20 to 50 and multiple of 5",
  validity: "validity must be 1 to 12 months",
  type: "such promo codes cannot be created",
  duplicate: "a promo code with this name already exists",
} as const;

export type NewPromo = {
  promoCode: string;
  promoType: string;
  isAvailable: boolean;
  discount: number;
  expirationDate: string;
};

/** Which rule a refused promo code broke: the panel words it in the operator's language. */
export type PromoRule = Exclude<keyof typeof promoMessages, "duplicate">;

/** Checks every rule of spec §5; answers the first rule that applies, or nothing. */
export function promoProblem(promo: NewPromo, now: number): PromoRule | undefined {
  const code = promo.promoCode.trim().toUpperCase();
  if (code.length < 5) return "code";
  if (!/^[A-Z0-9_-]+$/.test(code)) return "characters";
  if (!promoTypes.some((type) => type.type === promo.promoType)) return "type";
  const percent = Math.round(promo.discount * 100);
  if (Math.abs(promo.discount * 100 - percent) > 1e-9 || percent < 20 || percent > 50 || percent % 5 !== 0)
    return "discount";
  const expiration = Date.parse(`${promo.expirationDate}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(promo.expirationDate) || Number.isNaN(expiration)) return "validity";
  const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
  // A whole number of months from today, give or take a day for time zones.
  const isWholeMonths = Array.from({ length: 12 }, (_, index) => addMonths(today, index + 1)).some(
    (candidate) => Math.abs(candidate - expiration) <= dayMs,
  );
  return isWholeMonths ? undefined : "validity";
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
    const inserted = await statement(
      database,
      `INSERT INTO promos (promo_code, promo_type, is_available, discount_percent, expiration_date, created_by, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ).run(
      code,
      promo.promoType,
      promo.isAvailable ? 1 : 0,
      Math.round(promo.discount * 100),
      promo.expirationDate,
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

type PromoRow = {
  id: number;
  promo_code: string;
  promo_type: string;
  is_available: number;
  discount_percent: number;
  expiration_date: string;
};

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
  const where = "is_available = 1 AND expiration_date >= ? AND promo_code LIKE ? ESCAPE '\\'";
  const total =
    (
      await statement<{ count: number }, [string, string]>(
        database,
        `SELECT COUNT(*) AS count FROM promos WHERE ${where}`,
      ).get(today, like)
    )?.count ?? 0;
  const rows = await statement<PromoRow, [string, string, number, number]>(
    database,
    `SELECT * FROM promos WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`,
  ).all(today, like, size, number * size);
  return paged(
    rows.map((row) => ({
      id: row.id,
      promoCode: row.promo_code,
      promoType: row.promo_type,
      isAvailable: row.is_available === 1,
      discount: row.discount_percent / 100,
      expirationDate: row.expiration_date,
    })),
    number,
    size,
    total,
  );
}
