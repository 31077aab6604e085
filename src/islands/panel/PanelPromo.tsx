import { useEffect, useRef, useState } from "react";
import { api, errorMessage } from "../../lib/api-client";
import { formatDate } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  expirationAfter,
  normalizePromoCode,
  type PromoField,
  promoFieldErrors,
} from "../../lib/promo-rules";
import { showToast } from "../../lib/toast/toast-store";
import { panelCall } from "../../stores/panel-session";
import { Pager, PanelLayout } from "./PanelLayout";
import { Empty, Failed, Loading, ScrollRegion } from "./PanelStates";
import { usePanelData } from "./use-panel-data";

type Promos = NonNullable<Awaited<ReturnType<typeof api.panel.promos.availablePromos.get>>["data"]>;
const fieldMessages = {
  code: "panel.promoCodeShort",
  discount: "panel.promoDiscountRange",
  validity: "panel.promoValidityRange",
} as const;
/** The server's refusal reasons (the rule a code broke) in the operator's words. */
const refusalMessages = {
  code: "panel.promoCodeShort",
  characters: "panel.promoCodeCharacters",
  type: "panel.promoNoTypes",
  discount: "panel.promoDiscountRange",
  validity: "panel.promoValidityRange",
} as const;
type Refusal = { reason?: unknown; message?: unknown };

/** Spec §5: field errors clear after 7 seconds. */
export const fieldErrorLifetimeMs = 7000;

/**
 * Validity counts from the server's today (in the demo, its test clock), which the server
 * checks the expiry against, not from this browser's; asked at creation, so it is current.
 */
async function serverNow(): Promise<number> {
  const { data } = await panelCall((headers) => api.panel.clock.get({ headers }));
  const now = data ? Date.parse(data.now) : Number.NaN;
  return Number.isNaN(now) ? Date.now() : now;
}

function Promo() {
  const { t } = useTranslation();
  const [types, setTypes] = useState<{ type: string; name: string }[] | undefined>();
  const [code, setCode] = useState("");
  const [type, setType] = useState("");
  const [discount, setDiscount] = useState(20);
  const [months, setMonths] = useState(1);
  const [isAvailable, setIsAvailable] = useState(true);
  const [errors, setErrors] = useState<Partial<Record<PromoField, true>>>({});
  const [serverMessage, setServerMessage] = useState<string | undefined>();
  const [listQuery, setListQuery] = useState({ code: "", page: 0, version: 0 });
  const clearTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reloadList = () => setListQuery((query) => ({ code: "", page: 0, version: query.version + 1 }));

  useEffect(() => {
    panelCall((headers) => api.panel.promos.promoTypes.get({ headers }))
      .then(({ data }) => {
        setTypes(data ?? []);
        if (data?.[0]) setType(data[0].type);
      })
      .catch(() => setTypes([]));
    return () => clearTimeout(clearTimer.current);
  }, []);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setServerMessage(undefined);
    const found = promoFieldErrors(code, discount, months);
    setErrors(found);
    clearTimeout(clearTimer.current);
    clearTimer.current = setTimeout(() => setErrors({}), fieldErrorLifetimeMs);
    if (Object.keys(found).length > 0) return;
    try {
      const today = await serverNow();
      const { data, error } = await panelCall((headers) =>
        api.panel.promos.generatePromo.post(
          {
            promoCode: code,
            promoType: type,
            isAvailable,
            discount: discount / 100,
            expirationDate: expirationAfter(months, today),
          },
          { headers },
        ),
      );
      // The server's outcome in the operator's words: created, taken, refused by its rules.
      if (data?.success) {
        showToast(t("panel.promoCreated", { code: code.trim().toUpperCase() }), "success");
        setCode("");
        reloadList();
      } else {
        setServerMessage(
          error?.status === 409
            ? t("panel.promoExists")
            : error?.status === 400
              ? refusalText(error.value as Refusal)
              : error?.status === 403
                ? t("panel.forbidden")
                : (errorMessage(error) ?? t("panel.promoFailed")),
        );
      }
    } catch {
      setServerMessage(t("panel.promoFailed"));
    }
  };

  /** Why the server refused: its rule in the operator's words, else its own message. */
  const refusalText = (refusal: Refusal | undefined) => {
    const reason = refusal?.reason;
    if (typeof reason === "string" && reason in refusalMessages)
      return t(refusalMessages[reason as keyof typeof refusalMessages]);
    return typeof refusal?.message === "string" ? refusal.message : t("panel.promoRefused");
  };

  return (
    <>
      <section className="card" aria-labelledby="promo-generator">
        <h2 id="promo-generator">{t("panel.promoGenerator")}</h2>
        {types && types.length === 0 ? (
          <p role="alert">{t("panel.promoNoTypes")}</p>
        ) : (
          <form className="form" onSubmit={submit} noValidate>
            <label className="field">
              <span>{t("panel.promoCode")}</span>
              <input
                value={code}
                onChange={(event) => setCode(normalizePromoCode(event.target.value))}
                maxLength={64}
                aria-invalid={errors.code}
              />
              {errors.code && <span className="form__error">{t(fieldMessages.code)}</span>}
            </label>
            <label className="field">
              <span>{t("panel.promoType")}</span>
              <select value={type} onChange={(event) => setType(event.target.value)}>
                {(types ?? []).map((item) => (
                  <option key={item.type} value={item.type}>
                    {item.type === "DISCOUNT" ? t("panel.promoTypeDiscount") : item.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="field">
              <span>{t("panel.promoDiscount")}</span>
              <input
                type="number"
                min={20}
                max={50}
                step={5}
                value={discount}
                onChange={(event) => setDiscount(Number(event.target.value))}
                aria-invalid={errors.discount}
              />
              {errors.discount && <span className="form__error">{t(fieldMessages.discount)}</span>}
            </label>
            <label className="field">
              <span>{t("panel.promoValidity")}</span>
              <input
                type="number"
                min={1}
                max={12}
                step={1}
                value={months}
                onChange={(event) => setMonths(Number(event.target.value))}
                aria-invalid={errors.validity}
              />
              {errors.validity && <span className="form__error">{t(fieldMessages.validity)}</span>}
            </label>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={isAvailable}
                onChange={(event) => setIsAvailable(event.target.checked)}
              />
              <span>{t("panel.promoAvailable")}</span>
            </label>
            {serverMessage && (
              <p role="alert" className="form__error">
                {serverMessage}
              </p>
            )}
            <button type="submit" className="button button--primary">
              {t("panel.promoGenerate")}
            </button>
          </form>
        )}
      </section>
      <PromoList query={listQuery} onQuery={setListQuery} />
    </>
  );
}

type ListQuery = { code: string; page: number; version: number };

/** The available codes, newest first, filtered by part of the code. */
function PromoList({ query, onQuery }: { query: ListQuery; onQuery: (query: ListQuery) => void }) {
  const { t, language } = useTranslation();
  const [search, setSearch] = useState("");
  useEffect(() => {
    if (query.code === "" && query.page === 0) setSearch("");
  }, [query]);
  const { loaded, retry } = usePanelData(`${query.code}|${query.page}|${query.version}`, () =>
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
  const promos: Promos | undefined = loaded.state === "ready" ? loaded.data : undefined;
  return (
    <section className="card" aria-labelledby="promo-list">
      <h2 id="promo-list">{t("panel.promoList")}</h2>
      <form
        className="panel-search"
        onSubmit={(event) => {
          event.preventDefault();
          onQuery({ ...query, code: search.trim(), page: 0 });
        }}
      >
        <label className="field">
          <span>{t("panel.promoSearch")}</span>
          <input
            type="search"
            value={search}
            onChange={(event) => setSearch(normalizePromoCode(event.target.value))}
            maxLength={64}
          />
        </label>
        <button type="submit" className="button button--primary">
          {t("panel.searchButton")}
        </button>
      </form>
      {loaded.state === "loading" && <Loading />}
      {loaded.state === "failed" && <Failed status={loaded.status} onRetry={retry} />}
      {promos && promos.content.length === 0 && (
        <Empty>{query.code ? t("panel.promoNoneFound", { code: query.code }) : t("panel.promoNone")}</Empty>
      )}
      {promos && promos.content.length > 0 && (
        <ScrollRegion label={t("panel.promoList")}>
          <table className="panel-table">
            <thead>
              <tr>
                <th scope="col">{t("panel.id")}</th>
                <th scope="col">{t("panel.promoCode")}</th>
                <th scope="col">{t("panel.promoType")}</th>
                <th scope="col">{t("panel.promoDiscount")}</th>
                <th scope="col">{t("panel.promoExpires")}</th>
              </tr>
            </thead>
            <tbody>
              {promos.content.map((promo) => (
                <tr key={promo.id}>
                  <td>{promo.id}</td>
                  <td>{promo.promoCode}</td>
                  <td>{promo.promoType === "DISCOUNT" ? t("panel.promoTypeDiscount") : promo.promoType}</td>
                  <td>{Math.round(promo.discount * 100)}%</td>
                  <td>{formatDate(`${promo.expirationDate}T00:00:00Z`, language)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {promos && (
        <Pager
          page={query.page}
          totalPages={promos.page.totalPages}
          onChange={(page) => onQuery({ ...query, page })}
        />
      )}
    </section>
  );
}

export function PanelPromo() {
  return (
    <PanelLayout title={(t) => t("panel.promoTitle")} section="promo">
      <Promo />
    </PanelLayout>
  );
}
