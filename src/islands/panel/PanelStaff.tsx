import { useEffect, useState } from "react";
import { formatDateTime } from "../../../core/date-time";
import { HoldButton } from "../../components/react/HoldButton";
import { api } from "../../lib/api-client";
import { useTranslation } from "../../lib/i18n/use-translation";
import { showToast } from "../../lib/toast/toast-store";
import { panelCall, signedInOperatorId } from "../../stores/panel-session";
import { PanelLayout } from "./PanelLayout";
import { Empty, Failed, Loading } from "./PanelStates";
import { CreateForm, OncePassword, RefusalMessage, RoleSelect } from "./StaffParts";
import {
  type Answer,
  attempt,
  byName,
  type Member,
  type Refusal,
  type Revealed,
  type Role,
  roleKeys,
  roleWord,
} from "./staff-calls";
import { usePanelData } from "./use-panel-data";

/** One operator: name, state, date, and what an administrator may change about them. */
function MemberRow({
  member,
  isSelf,
  onChanged,
  onPassword,
}: {
  member: Member;
  isSelf: boolean;
  onChanged: (member: Member) => void;
  onPassword: (revealed: Revealed) => void;
}) {
  const { t, language } = useTranslation();
  const [refusal, setRefusal] = useState<Refusal | undefined>();
  const [isBusy, setIsBusy] = useState(false);
  const path = api.panel.operators({ id: member.id });

  const change = async <D extends { operator: Member }>(
    call: (headers: { authorization: string }) => Promise<Answer<D>>,
    done: (data: D) => void,
  ) => {
    setRefusal(undefined);
    setIsBusy(true);
    const outcome = await attempt(call);
    setIsBusy(false);
    if ("refusal" in outcome) {
      setRefusal(outcome.refusal);
      return;
    }
    onChanged(outcome.data.operator);
    done(outcome.data);
  };

  const changeRole = (role: Role) =>
    change(
      (headers) => path.role.post({ role }, { headers }),
      ({ operator }) =>
        showToast(
          t("panel.staffRoleChanged", { username: operator.username, role: roleWord(operator.role, t) }),
          "success",
        ),
    );
  const setDisabled = (isDisabled: boolean) =>
    change(
      (headers) => (isDisabled ? path.disable.post({}, { headers }) : path.enable.post({}, { headers })),
      ({ operator }) =>
        showToast(
          t(isDisabled ? "panel.staffDisabledDone" : "panel.staffEnabledDone", {
            username: operator.username,
          }),
          "success",
        ),
    );
  const resetPassword = () =>
    change(
      (headers) => path.resetPassword.post({}, { headers }),
      ({ operator, password }) => onPassword({ username: operator.username, password }),
    );

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
            onChange={(role) => void changeRole(role)}
          />
        )}
        {!isSelf &&
          (member.isDisabled ? (
            <button
              type="button"
              className="button button--ghost"
              disabled={isBusy}
              onClick={() => void setDisabled(false)}
            >
              {t("panel.staffEnable")}
            </button>
          ) : (
            <HoldButton
              label={t("panel.staffDisable")}
              hint={t("panel.staffHoldToDisable")}
              variant="danger"
              disabled={isBusy}
              onConfirm={() => setDisabled(true)}
            />
          ))}
        <HoldButton
          label={t("panel.staffReset")}
          hint={t(isSelf ? "panel.staffHoldToResetOwn" : "panel.staffHoldToReset")}
          variant="ghost"
          disabled={isBusy}
          onConfirm={resetPassword}
        />
      </div>
      {refusal && <RefusalMessage refusal={refusal} />}
    </li>
  );
}

function Staff() {
  const { t } = useTranslation();
  const { loaded, retry } = usePanelData("staff", () =>
    panelCall((headers) => api.panel.operators.get({ headers })),
  );
  const [members, setMembers] = useState<Member[] | undefined>();
  const [revealed, setRevealed] = useState<Revealed | undefined>();
  useEffect(() => {
    if (loaded.state === "ready") setMembers([...loaded.data.operators].sort(byName));
  }, [loaded]);

  if (loaded.state === "loading") return <Loading />;
  if (loaded.state === "failed") return <Failed status={loaded.status} onRetry={retry} />;
  if (!members) return null;
  const selfId = signedInOperatorId();
  const replace = (changed: Member) =>
    setMembers((list) => list?.map((member) => (member.id === changed.id ? changed : member)));

  return (
    <>
      {revealed && (
        <OncePassword key={revealed.password} revealed={revealed} onDismiss={() => setRevealed(undefined)} />
      )}
      <CreateForm
        onCreated={(member, password) => {
          setMembers((list) =>
            [...(list ?? []).filter((item) => item.id !== member.id), member].sort(byName),
          );
          if (password) setRevealed({ username: member.username, password });
        }}
      />
      <section className="card" aria-labelledby="staff-list">
        <h2 id="staff-list">{t("panel.staffListTitle")}</h2>
        {members.length === 0 ? (
          <Empty>{t("panel.staffEmpty")}</Empty>
        ) : (
          <ul className="panel-staff__list">
            {members.map((member) => (
              <MemberRow
                key={member.id}
                member={member}
                isSelf={member.id === selfId}
                onChanged={replace}
                onPassword={setRevealed}
              />
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
