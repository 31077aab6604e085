import { useEffect, useRef, useState } from "react";
import { HoldButton } from "../../components/react/HoldButton";
import { SiteFooter } from "../../components/react/SiteFooter";
import type { TranslationKey } from "../../lib/i18n/runtime";
import { useTranslation } from "../../lib/i18n/use-translation";
import { deleteAccount, exportAccountData } from "../../stores/cabinet";

/** What deleting the account does, said before the hold (the server's deletion, point by point). */
const deletionPoints: TranslationKey[] = [
  "cabinet.dataDeleteCharges",
  "cabinet.dataDeleteAccess",
  "cabinet.dataDeleteRemoved",
  "cabinet.dataDeleteFinal",
  "cabinet.dataDeleteKept",
];

/**
 * "Your data": a copy of everything kept about the customer, and the deletion of the
 * account. A failure is said here, beside the button that failed, never only in a toast.
 */
export function AccountDataBlock() {
  const { t } = useTranslation();
  const [isExporting, setIsExporting] = useState(false);
  const [exportError, setExportError] = useState<TranslationKey | undefined>();
  const [deleteError, setDeleteError] = useState<TranslationKey | undefined>();

  const download = async () => {
    if (isExporting) return;
    setIsExporting(true);
    setExportError(undefined);
    setExportError(await exportAccountData());
    setIsExporting(false);
  };

  return (
    <section className="card account-data" aria-labelledby="data-title">
      <h2 id="data-title">{t("cabinet.dataTitle")}</h2>
      <p>{t("cabinet.dataExportText")}</p>
      <button
        type="button"
        className="button button--ghost"
        aria-busy={isExporting}
        aria-disabled={isExporting}
        onClick={() => void download()}
      >
        {isExporting && <span className="account-data__spinner" aria-hidden="true" />}
        {t(isExporting ? "cabinet.dataExporting" : "cabinet.dataExport")}
      </button>
      {exportError && (
        <p className="form__error" role="alert">
          {t(exportError)}
        </p>
      )}
      <div className="account-data__danger">
        <h3>{t("cabinet.dataDeleteTitle")}</h3>
        <p>{t("cabinet.dataDeleteIntro")}</p>
        <ul className="account-data__points">
          {deletionPoints.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ul>
        <HoldButton
          label={t("cabinet.dataDelete")}
          hint={t("cabinet.holdToDeleteAccount")}
          variant="danger"
          onConfirm={async () => {
            setDeleteError(undefined);
            setDeleteError(await deleteAccount());
          }}
        />
        {deleteError && (
          <p className="form__error" role="alert">
            {t(deleteError)}
          </p>
        )}
      </div>
    </section>
  );
}

/** After the deletion: what happened, said plainly, and the way home. */
export function AccountDeleted() {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  // The button that was held is gone; the news is where focus goes.
  useEffect(() => heading.current?.focus(), []);
  return (
    <>
      <main id="main" className="screen screen--center">
        <a className="brand" href="/">
          Kannt
        </a>
        <section className="card account-deleted" aria-labelledby="deleted-title">
          <h1 id="deleted-title" ref={heading} tabIndex={-1}>
            {t("cabinet.deletedTitle")}
          </h1>
          <p>{t("cabinet.deletedText")}</p>
          <a className="button button--primary" href="/">
            {t("cabinet.deletedHome")}
          </a>
        </section>
      </main>
      <SiteFooter />
    </>
  );
}
