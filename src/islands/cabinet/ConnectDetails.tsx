import { HoldButton } from "../../components/react/HoldButton";
import { appLinks } from "../../lib/app-links";
import { formatBytes } from "../../lib/byte-size";
import { useTranslation } from "../../lib/i18n/use-translation";
import { copyLink, type DeviceLink, resetDeviceLink } from "../../stores/device-connect";

type Props = { link: DeviceLink; traffic: { upload: number; download: number } | undefined };

/**
 * The server's QR drawing shown as an image: an SVG in an <img> runs no script and reaches
 * nothing on the page, whatever the text holds (never inserted as markup).
 */
const qrImage = (svg: string) =>
  `data:image/svg+xml;base64,${btoa(String.fromCharCode(...new TextEncoder().encode(svg)))}`;

/** The Connect panel's body once the link is there: QR, the link to copy, app links, reset. */
export function ConnectDetails({ link, traffic }: Props) {
  const { t, language } = useTranslation();
  return (
    <>
      <p className="muted" data-testid="device-traffic">
        {t("cabinet.trafficThisMonth", {
          download: formatBytes(traffic?.download ?? 0, language),
          upload: formatBytes(traffic?.upload ?? 0, language),
        })}
      </p>
      <p>{t("cabinet.connectHowTo")}</p>
      <img
        className="connect__qr"
        src={qrImage(link.qrSvg)}
        width={208}
        height={208}
        alt={t("cabinet.connectQrAlt")}
      />
      <label className="connect__label" htmlFor="connect-link">
        {t("cabinet.connectLink")}
      </label>
      <div className="connect__link">
        <input
          id="connect-link"
          readOnly
          value={link.subscriptionUrl}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button
          type="button"
          className="button button--primary"
          onClick={() => void copyLink(link.subscriptionUrl)}
        >
          {t("promo.copy")}
        </button>
      </div>
      <p className="muted">{t("cabinet.connectKeepPrivate")}</p>
      <h3>{t("cabinet.openInApp")}</h3>
      {/* App names are names: a translator leaves them as they are. */}
      <ul className="connect__apps" translate="no">
        {appLinks(link.subscriptionUrl).map(({ app, href }) => (
          <li key={app}>
            <a className="button button--ghost" href={href}>
              {app}
            </a>
          </li>
        ))}
      </ul>
      <HoldButton
        label={t("cabinet.resetLink")}
        hint={t("cabinet.holdToResetLink")}
        variant="danger"
        onConfirm={() => resetDeviceLink(link.deviceId)}
      />
    </>
  );
}
