import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { formatDateTime } from "../../../core/date-time";
import { HoldButton } from "../../components/react/HoldButton";
import { useTranslation } from "../../lib/i18n/use-translation";
import { idle } from "../../stores/panel-change";
import { signedInOperatorId } from "../../stores/panel-session";
import {
  $memberChanges,
  $members,
  $revealedPassword,
  $staffRead,
  changeRole,
  dismissPassword,
  type Member,
  openStaff,
  resetOperatorPassword,
  retryStaff,
  setOperatorDisabled,
} from "../../stores/panel-staff";
import { PanelLayout } from "./PanelLayout";
import { Empty, Failed, Loading } from "./PanelStates";
import { CreateForm, OncePassword, RefusalMessage, RoleSelect } from "./StaffParts";
import { roleKeys } from "./staff-words";

/** One operator: name, state, date, and what an administrator may change about them. */
function MemberRow({ member, isSelf }: { member: Member; isSelf: boolean }) {
  const { t, language } = useTranslation();
  const { isBusy, refusal } = useStore($memberChanges, { keys: [String(member.id)] })[member.id] ?? idle;

  const state = member.isDisabled ? t("panel.staffDisabled") : t("panel.staffActive");
  return (
    <li className="panel-staff__member" aria-busy={isBusy}>
      <div className="panel-staff__about">
        <p className="panel-staff__name">
          <strong>{member.username}</strong>
          {isSelf && <span className="badge">{t("panel.staffYou")}</span>}
        </p>
        <dl className="panel-audit__facts">
          {isSelf && (
            <div>
              <dt>{t("panel.staffRole")}</dt>
              <dd>{t(roleKeys[member.role])}</dd>
            </div>
          )}
          <div>
            <dt>{t("panel.staffState")}</dt>
            <dd>
              <span className={`badge ${member.isDisabled ? "badge--expired" : "badge--active"}`}>
                {state}
              </span>
            </dd>
          </div>
          <div>
            <dt>{t("panel.staffCreatedAt")}</dt>
            <dd>{formatDateTime(member.createdAt, language)}</dd>
          </div>
        </dl>
      </div>
      <div className="panel-staff__actions">
        {!isSelf && (
          <RoleSelect
            className="panel-staff__role"
            value={member.role}
            disabled={isBusy}
            onChange={(role) => void changeRole(member, role)}
          />
        )}
        {!isSelf &&
          (member.isDisabled ? (
            <button
              type="button"
              className="button button--ghost"
              disabled={isBusy}
              onClick={() => void setOperatorDisabled(member, false)}
            >
              {t("panel.staffEnable")}
            </button>
          ) : (
            <HoldButton
              label={t("panel.staffDisable")}
              hint={t("panel.staffHoldToDisable")}
              variant="danger"
              disabled={isBusy}
              onConfirm={() => setOperatorDisabled(member, true)}
            />
          ))}
        <HoldButton
          label={t("panel.staffReset")}
          hint={t(isSelf ? "panel.staffHoldToResetOwn" : "panel.staffHoldToReset")}
          variant="ghost"
          disabled={isBusy}
          onConfirm={() => resetOperatorPassword(member)}
        />
      </div>
      {refusal && <RefusalMessage refusal={refusal} />}
    </li>
  );
}

function Staff() {
  const { t } = useTranslation();
  const loaded = useStore($staffRead);
  const members = useStore($members);
  const revealed = useStore($revealedPassword);
  useEffect(() => {
    void openStaff();
  }, []);

  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "failed") return <Failed failure={loaded} onRetry={() => void retryStaff()} />;
  if (!members) return null;
  const selfId = signedInOperatorId();

  return (
    <>
      {revealed && <OncePassword key={revealed.password} revealed={revealed} onDismiss={dismissPassword} />}
      <CreateForm />
      <section className="card" aria-labelledby="staff-list">
        <h2 id="staff-list">{t("panel.staffListTitle")}</h2>
        {members.length === 0 ? (
          <Empty>{t("panel.staffEmpty")}</Empty>
        ) : (
          <ul className="panel-staff__list">
            {members.map((member) => (
              <MemberRow key={member.id} member={member} isSelf={member.id === selfId} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

export function PanelStaff() {
  return (
    <PanelLayout title={(t) => t("panel.staffTitle")} section="staff">
      <Staff />
    </PanelLayout>
  );
}
