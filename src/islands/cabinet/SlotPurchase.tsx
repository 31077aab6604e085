import { HoldButton } from "../../components/react/HoldButton";
import { formatUnits, formatUntil } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import type { ShopData } from "../../stores/cabinet";

type Props = {
  shop: ShopData;
  onConfirm: () => void | Promise<void>;
  variant?: "primary" | "ghost";
};

/**
 * Buying one more device slot: what is charged now, to when, and then a month, stated
 * before the hold (the shop's `deviceCharge`, the figure the purchase charges exactly).
 * Nothing while the server offers no slot.
 */
export function SlotPurchase({ shop, onConfirm, variant = "primary" }: Props) {
  const { t, language } = useTranslation();
  const charge = shop.deviceCharge;
  if (!charge) return null;
  const amount = formatUnits(charge.amount, shop.currency);
  return (
    <>
      <p data-testid="slot-terms">
        {t("cabinet.slotTerms", {
          amount,
          until: formatUntil(charge.until, language),
          price: formatUnits(charge.perMonth, shop.currency),
        })}
      </p>
      <HoldButton
        label={t("cabinet.addDevice", { amount })}
        hint={t("cabinet.holdToAddDevice")}
        variant={variant}
        onConfirm={onConfirm}
      />
    </>
  );
}
