import { atom, map } from "nanostores";
import { percentToFraction } from "../../core/money";
import {
  expirationAfter,
  normalizePromoCode,
  type PromoField,
  promoFieldErrors,
} from "../../core/promo-rules";
import { type ApiData, api, errorCode, errorMessage } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { showToast } from "../lib/toast/toast-store";
import { type Failure, failureOf, panelQuery } from "./panel-query";
import { panelCall } from "./panel-session";

export type PromoType = ApiData<typeof api.panel.promos.promoTypes.get>[number];
export type PromoPage = ApiData<typeof api.panel.promos.availablePromos.get>;

/** Spec §5: field errors clear after 7 seconds. */
export const fieldErrorLifetimeMs = 7000;

export type PromoDraft = {
  code: string;
  type: string;
  discount: number;
  months: number;
  isAvailable: boolean;
};

/** The generator's form: a code is always written as the server keeps it (upper case, no spaces). */
export const $promoDraft = map<PromoDraft>({
  code: "",
  type: "",
  discount: 20,
  months: 1,
  isAvailable: true,
});
/** The kinds a code may be; none means nothing can be created. */
export const $promoTypes = atom<PromoType[] | undefined>();
/** Why the kinds could not be read: not "none", which would tell the operator a wrong fact. */
export const $promoTypesFailure = atom<Failure | undefined>();
/** The form's rules a creation broke, shown under their fields for 7 seconds. */
export const $promoFieldErrors = atom<Partial<Record<PromoField, true>>>({});
/** Why the server did not create the code, in the operator's words. */
export const $promoRefusal = atom<string | undefined>();
/** The list's search box: emptied whenever the list shows its first page of every code. */
export const $promoSearch = atom("");

export function editPromo<K extends keyof PromoDraft>(field: K, value: PromoDraft[K]): void {
  $promoDraft.set({
    ...$promoDraft.get(),
    [field]: field === "code" ? normalizePromoCode(String(value)) : value,
  });
}

export const editPromoSearch = (value: string) => $promoSearch.set(normalizePromoCode(value));

/** `version` asks the list again after a creation, even for the question already on screen. */
type ListQuery = { code: string; page: number; version: number };

const list = panelQuery<ListQuery, PromoPage>({ code: "", page: 0, version: 0 }, (query) =>
  panelCall((headers) =>
    api.panel.promos.availablePromos.get({
      headers,
      query: {
        page: query.page,
        size: 5,
        sortBy: "id",
        sortDirection: "DESC",
        ...(query.code ? { code: query.code } : {}),
      },
    }),
  ),
);

export const $promoListQuery = list.$query;
export const $promoList = list.$loaded;
export const retryPromoList = list.retry;

function askList(query: ListQuery): Promise<void> {
  if (query.code === "" && query.page === 0) $promoSearch.set("");
  return list.ask(query);
}

export const searchPromos = () => askList({ ...list.$query.get(), code: $promoSearch.get().trim(), page: 0 });

export const showPromoPage = (page: number) => askList({ ...list.$query.get(), page });

const reloadPromoList = () => askList({ code: "", page: 0, version: list.$query.get().version + 1 });

export async function loadPromoTypes(): Promise<void> {
  $promoTypesFailure.set(undefined);
  try {
    const { data, error } = await panelCall((headers) => api.panel.promos.promoTypes.get({ headers }));
    if (!data) {
      $promoTypesFailure.set(failureOf(error));
      return;
    }
    $promoTypes.set(data);
    if (data[0]) $promoDraft.setKey("type", data[0].type);
  } catch {
    $promoTypesFailure.set({ status: undefined });
  }
}

/** The kinds and the list are asked at once, as the screen opens. */
export const openPromos = async () => {
  await Promise.all([askList(list.$query.get()), loadPromoTypes()]);
};

/**
 * Validity counts from the server's today (in the demo, its test clock), which the server
 * checks the expiry against, not from this browser's; asked at creation, so it is current.
 */
async function serverToday(): Promise<number> {
  const { data } = await panelCall((headers) => api.panel.clock.get({ headers }));
  const now = data ? Date.parse(data.now) : Number.NaN;
  return Number.isNaN(now) ? Date.now() : now;
}

let fieldErrorTimer: ReturnType<typeof setTimeout> | undefined;

/** Checks the form by the spec's rules, then asks the server to create the code. */
export async function createPromo(): Promise<void> {
  $promoRefusal.set(undefined);
  const { code, type, discount, months, isAvailable } = $promoDraft.get();
  const found = promoFieldErrors(code, discount, months);
  $promoFieldErrors.set(found);
  clearTimeout(fieldErrorTimer);
  fieldErrorTimer = setTimeout(() => $promoFieldErrors.set({}), fieldErrorLifetimeMs);
  if (Object.keys(found).length > 0) return;
  try {
    const today = await serverToday();
    const { data, error } = await panelCall((headers) =>
      api.panel.promos.generatePromo.post(
        {
          promoCode: code,
          promoType: type,
          isAvailable,
          discount: percentToFraction(discount),
          expirationDate: expirationAfter(months, today),
        },
        { headers },
      ),
    );
    // Created, or refused: the server words a refusal (a taken code, a broken rule) in the
    // operator's language; support staff get the screen's own words for their section.
    if (data?.success) {
      showToast(translate("panel.promoCreated", { code: code.trim().toUpperCase() }), "success");
      $promoDraft.setKey("code", "");
      await reloadPromoList();
      return;
    }
    $promoRefusal.set(
      errorCode(error) === "admin_only"
        ? translate("panel.forbidden")
        : (errorMessage(error) ?? translate("panel.promoFailed")),
    );
  } catch {
    $promoRefusal.set(translate("panel.promoFailed"));
  }
}
