import { atom, map } from "nanostores";
import { type ApiData, api } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { showToast } from "../lib/toast/toast-store";
import { type ChangeCall, type ChangeState, idle, tracked } from "./panel-change";
import { panelQuery } from "./panel-query";
import { panelCall } from "./panel-session";

export type Member = ApiData<typeof api.panel.operators.get>["operators"][number];
export type Role = Member["role"];
/** A password the server made, shown once: never stored, gone when dismissed or the page is left. */
export type Revealed = { username: string; password: string };

/** The server's order (`lower(username), id`): names are ASCII, compared code point by code point. */
function byName(a: Member, b: Member): number {
  const [left, right] = [a.username.toLowerCase(), b.username.toLowerCase()];
  return left < right ? -1 : left > right ? 1 : a.id - b.id;
}

/** The operators on screen: as read, then as each change leaves them. */
export const $members = atom<Member[] | undefined>();
export const $revealedPassword = atom<Revealed | undefined>();
export const $staffCreation = atom<ChangeState>(idle);
/** Each operator's change under way or last refused, by id. */
export const $memberChanges = map<Record<string, ChangeState | undefined>>({});

const staff = panelQuery("staff", () => panelCall((headers) => api.panel.operators.get({ headers })), {
  onReady: (data) => $members.set([...data.operators].sort(byName)),
});

export const $staffRead = staff.$loaded;
export const openStaff = () => staff.ask("staff");
export const retryStaff = staff.retry;
export const dismissPassword = () => $revealedPassword.set(undefined);

const roleWord = (role: Role) => translate(role === "admin" ? "panel.roleAdmin" : "panel.roleSupport");

function putMember(member: Member): void {
  $members.set([...($members.get() ?? []).filter((item) => item.id !== member.id), member].sort(byName));
}

/** Creates an operator; true when created (the form then empties). A made password is shown once. */
export async function createOperator(form: {
  username: string;
  role: Role;
  password: string;
}): Promise<boolean> {
  const created = await tracked(
    (state) => $staffCreation.set(state),
    (headers) =>
      api.panel.operators.post(
        {
          username: form.username.trim(),
          role: form.role,
          ...(form.password ? { password: form.password } : {}),
        },
        { headers },
      ),
  );
  if (!created) return false;
  const { operator, password } = created;
  showToast(translate("panel.staffCreated", { username: operator.username }), "success");
  putMember(operator);
  if (password) $revealedPassword.set({ username: operator.username, password });
  return true;
}

/** A change to one operator; the list shows the operator as the server answers them. */
async function change<D extends { operator: Member }>(
  member: Member,
  call: ChangeCall<D>,
  done: (data: D) => void,
): Promise<void> {
  const changed = await tracked((state) => $memberChanges.setKey(String(member.id), state), call);
  if (!changed) return;
  const { operator } = changed;
  $members.set($members.get()?.map((item) => (item.id === operator.id ? operator : item)));
  done(changed);
}

const operatorPath = (member: Member) => api.panel.operators({ id: member.id });

export const changeRole = (member: Member, role: Role) =>
  change(
    member,
    (headers) => operatorPath(member).role.post({ role }, { headers }),
    ({ operator }) =>
      showToast(
        translate("panel.staffRoleChanged", { username: operator.username, role: roleWord(operator.role) }),
        "success",
      ),
  );

export const setOperatorDisabled = (member: Member, isDisabled: boolean) =>
  change(
    member,
    (headers) =>
      isDisabled
        ? operatorPath(member).disable.post({}, { headers })
        : operatorPath(member).enable.post({}, { headers }),
    ({ operator }) =>
      showToast(
        translate(isDisabled ? "panel.staffDisabledDone" : "panel.staffEnabledDone", {
          username: operator.username,
        }),
        "success",
      ),
  );

/** A new password for the operator, shown once; their sign-ins end at once (the server's rule). */
export const resetOperatorPassword = (member: Member) =>
  change(
    member,
    (headers) => operatorPath(member).resetPassword.post({}, { headers }),
    ({ operator, password }) => $revealedPassword.set({ username: operator.username, password }),
  );
