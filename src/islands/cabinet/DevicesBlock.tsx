import { useState } from "react";
import { HoldButton } from "../../components/react/HoldButton";
import { platformName, shortDeviceName } from "../../lib/cabinet-view";
import { formatDateFor } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import { addDevice, type Device, detachDevice, type ProfileData, type ShopData } from "../../stores/cabinet";
import ConnectPanel from "./ConnectPanel";
import { SlotPurchase } from "./SlotPurchase";

type Props = { profile: ProfileData; shop: ShopData; canAddDevice: boolean };

export function DevicesBlock({ profile, shop, canAddDevice }: Props) {
  const { t, language } = useTranslation();
  const active = profile.devices.filter((device) => device.isActive);
  const unactivated = profile.devices.length - active.length;
  /** Under the name: a pending link, a device waiting for a slot, or the platform and first day. */
  const deviceNote = (device: Device) => {
    if (device.pendingUntil) return t("cabinet.pendingDevice");
    if (!device.isActive) return t("cabinet.waitingForSlot");
    const since = formatDateFor("since", device.firstActivation ?? device.created, language);
    const platform = device.platform === "other" ? "" : `${platformName(device.platform)} · `;
    return `${platform}${t("cabinet.deviceSince", { since })}`;
  };
  /** The device whose Connect panel is open; "" for a new one. */
  const [connecting, setConnecting] = useState<string>();
  return (
    <section className="card" aria-labelledby="devices-title">
      <h2 id="devices-title">{t("cabinet.devices")}</h2>
      <p data-testid="available-devices">
        {t("cabinet.availableDevices", { count: profile.availableDevices })}
      </p>
      {unactivated > 0 && <p>{t("cabinet.unactivatedDevices", { count: unactivated })}</p>}
      {active.length === 0 && <p className="muted">{t("cabinet.noActiveDevices")}</p>}
      {profile.devices.length > 0 && (
        <ul className="devices">
          {profile.devices.map((device) => (
            <li key={device.deviceId} className="devices__item">
              <div>
                {/* A device connected here has no name until its app first fetches the link. */}
                <p className="devices__name" id={`device-${device.id}`} title={device.deviceName}>
                  {shortDeviceName(device.deviceName) || t("cabinet.newDevice")}
                </p>
                <p className="muted">{deviceNote(device)}</p>
              </div>
              <div className="devices__actions">
                <button
                  type="button"
                  className="button button--primary"
                  aria-describedby={`device-${device.id}`}
                  onClick={() => setConnecting(device.deviceId)}
                >
                  {t("cabinet.connect")}
                </button>
                <HoldButton
                  label={t("cabinet.unlink")}
                  hint={t("cabinet.holdToUnlink")}
                  variant="ghost"
                  onConfirm={() => detachDevice(device.deviceId)}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button button--ghost" onClick={() => setConnecting("")}>
        {t("cabinet.connectNew")}
      </button>
      {connecting !== undefined && (
        <ConnectPanel
          deviceId={connecting}
          canAddDevice={canAddDevice}
          onClose={() => setConnecting(undefined)}
        />
      )}
      {canAddDevice && <SlotPurchase shop={shop} variant="ghost" onConfirm={addDevice} />}
    </section>
  );
}

export function AppInstallBlock() {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="install-title">
      <h2 id="install-title">{t("cabinet.installApp")}</h2>
      <p>{t("cabinet.installText")}</p>
      <a
        className="button button--primary"
        href="https://play.google.com/store/apps/details?id=app.kannt.android"
        target="_blank"
        rel="noopener"
      >
        {t("cabinet.goToStore")}
      </a>
      {/* Any app that takes a subscription link works, on every platform (the Connect panel lists them). */}
      <p className="muted">{t("cabinet.otherApps")}</p>
    </section>
  );
}

export function SupportBlock() {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="support-title">
      <h2 id="support-title">{t("support.title")}</h2>
      <p>{t("support.text")}</p>
    </section>
  );
}
