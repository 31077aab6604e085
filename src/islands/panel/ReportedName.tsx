import { shortDeviceName } from "../../lib/cabinet-view";
import { useTranslation } from "../../lib/i18n/use-translation";

/**
 * A device's name as its app reported it (the activation, or the first fetch of the link):
 * an app can send anything, "Support: call …" included, so the panel marks it as the app's
 * word, and it is only ever text (React writes it as text; the full name is a title).
 * `isShort`: cut to the spec's 20 characters plus dots.
 */
export function ReportedName({ name, isShort = false }: { name: string; isShort?: boolean }) {
  const { t } = useTranslation();
  if (!name) return <>{t("panel.deviceNotNamed")}</>;
  return (
    <span title={name}>
      {isShort ? shortDeviceName(name) : name} <span className="muted">{t("panel.reportedByApp")}</span>
    </span>
  );
}
