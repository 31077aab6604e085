import { useStore } from "@nanostores/react";
import { useEffect, useRef } from "react";
import { Spinner } from "../../components/react/Spinner";
import { useTranslation } from "../../lib/i18n/use-translation";
import { $profile, $shop } from "../../stores/cabinet";
import { $connect, addSlotAndConnect, closeConnect, connectDevice } from "../../stores/device-connect";
import { ConnectDetails } from "./ConnectDetails";
import { PendingChoice } from "./PendingChoice";
import { SlotPurchase } from "./SlotPurchase";

type Props = {
  /** The device to connect; "" takes a free slot for a new one. */
  deviceId: string;
  canAddDevice: boolean;
  onClose: () => void;
};

/**
 * The Connect panel: a modal dialog (the page behind it is inert, Escape closes it) with
 * the device's link as a QR code, as text to copy and as "open in app" links. Loaded only
 * when a customer opens it, so the cabinet's first load does not carry it.
 */
export default function ConnectPanel({ deviceId, canAddDevice, onClose }: Props) {
  const { t } = useTranslation();
  const state = useStore($connect);
  const profile = useStore($profile);
  const shop = useStore($shop);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
    void connectDevice(deviceId || undefined);
  }, [deviceId]);

  const shownId = state.step === "ready" ? state.deviceId : deviceId;
  const device = profile?.devices.find((candidate) => candidate.deviceId === shownId);
  // Until a new device has its slot there is no device to name yet.
  const title = shownId
    ? t("cabinet.connectTitle", { name: device?.deviceName || t("cabinet.newDevice") })
    : t("cabinet.connectNew");

  return (
    <dialog
      ref={dialog}
      className="card prompt--modal connect"
      aria-labelledby="connect-title"
      aria-busy={state.step === "loading"}
      onClose={() => {
        void closeConnect();
        onClose();
      }}
    >
      <h2 id="connect-title">{title}</h2>
      {state.step === "loading" && <Spinner label={t("common.loading")} />}
      {state.step === "ready" && (
        <>
          <ConnectDetails link={state} traffic={device?.traffic} />
          {device?.pendingUntil && <PendingChoice deviceId={state.deviceId} />}
        </>
      )}
      {state.step === "no-slot" && (
        <>
          <p role="alert">{state.message}</p>
          {canAddDevice && shop && (
            <>
              <p>{t("cabinet.connectBuySlot")}</p>
              <SlotPurchase shop={shop} onConfirm={addSlotAndConnect} />
            </>
          )}
        </>
      )}
      {state.step === "failed" && (
        <>
          <p role="alert">{state.message}</p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => void connectDevice(deviceId || undefined)}
          >
            {t("cabinet.retry")}
          </button>
        </>
      )}
      <button type="button" className="button button--ghost" onClick={() => dialog.current?.close()}>
        {t("cabinet.connectClose")}
      </button>
    </dialog>
  );
}
