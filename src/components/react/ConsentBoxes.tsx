import { useState } from "react";
import { useTranslation } from "../../lib/i18n/use-translation";

type Props = { consent: string; onAgreed: (isAgreed: boolean) => void };

/**
 * The two consents of spec §2: auto-charge on the stated terms and the public offer.
 * The parent keys this by the consent text, so changed terms start unticked.
 */
export function ConsentBoxes({ consent, onAgreed }: Props) {
  const { t } = useTranslation();
  const [boxes, setBoxes] = useState({ charge: false, offer: false });
  const tick = (box: "charge" | "offer", isChecked: boolean) => {
    const next = { ...boxes, [box]: isChecked };
    setBoxes(next);
    onAgreed(next.charge && next.offer);
  };
  return (
    <>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={boxes.charge}
          onChange={(event) => tick("charge", event.target.checked)}
        />
        <span>{consent}</span>
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={boxes.offer}
          onChange={(event) => tick("offer", event.target.checked)}
        />
        <span>
          {t("purchase.consentOfferBefore")}{" "}
          <a href="/offer" target="_blank" rel="noopener">
            {t("purchase.consentOfferLink")}
          </a>
        </span>
      </label>
    </>
  );
}
