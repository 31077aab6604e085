import { HoldButton } from "../../components/react/HoldButton";
import { platformName, shortDeviceName } from "../../lib/cabinet-view";
import { formatDate, formatUnits } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import { addDevice, detachDevice, type ProfileData, type ShopData } from "../../stores/cabinet";

type Props = { profile: ProfileData; shop: ShopData; canAddDevice: boolean };

export function DevicesBlock({ profile, shop, canAddDevice }: Props) {
  const { t, language } = useTranslation();
  const active = profile.devices.filter((device) => device.isActive);
  const unactivated = profile.devices.length - active.length;
  return (
    <section className="card" aria-labelledby="devices-title">
      <h2 id="devices-title">{t("cabinet.devices")}</h2>
      <p data-testid="available-devices">
        {t("cabinet.availableDevices", { count: profile.availableDevices })}
      </p>
      {unactivated > 0 && <p>{t("cabinet.unactivatedDevices", { count: unactivated })}</p>}
      {active.length === 0 ? (
        <p className="muted">{t("cabinet.noActiveDevices")}</p>
      ) : (
        <ul className="devices">
          {active.map((device) => (
            <li key={device.deviceId} className="devices__item">
              <div>
                <p className="devices__name" title={device.deviceName}>
                  {shortDeviceName(device.deviceName)}
                </p>
                <p className="muted">
                  {platformName(device.platform)} ·{" "}
                  {t("cabinet.deviceSince", {
                    date: formatDate(device.firstActivation ?? device.created, language),
                  })}
                </p>
              </div>
              <HoldButton
                label={t("cabinet.unlink")}
                hint={t("cabinet.holdToUnlink")}
                variant="ghost"
                onConfirm={() => detachDevice(device.deviceId)}
              />
            </li>
          ))}
        </ul>
      )}
      {canAddDevice && (
        <HoldButton
          label={t("cabinet.addDevice", { price: formatUnits(shop.devicePrice, shop.currency) })}
          hint={t("cabinet.holdToAddDevice")}
          variant="ghost"
          onConfirm={addDevice}
        />
      )}
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
      <p className="muted">{t("cabinet.appUnderDevelopment")}</p>
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
