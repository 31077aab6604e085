import { useStore } from "@nanostores/react";
import { useTranslation } from "../../lib/i18n/use-translation";
import { $confirming, confirmAdded } from "../../stores/device-connect";

/**
 * A pending device's part of the Connect panel: its link holds a slot only until it is
 * used, and "I've added it" takes the slot for good (the app's first fetch does too).
 */
export function PendingChoice({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const isSaving = useStore($confirming) === "saving";
  return (
    <div className="connect__pending">
      <p>{t("cabinet.connectPending")}</p>
      <button
        type="button"
        className="button button--primary"
        disabled={isSaving}
        aria-busy={isSaving}
        onClick={() => void confirmAdded(deviceId)}
      >
        {isSaving ? t("cabinet.connectConfirming") : t("cabinet.connectConfirm")}
      </button>
    </div>
  );
}
