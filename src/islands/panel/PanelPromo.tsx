import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "../../lib/api-client";
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

type Promos = NonNullable<Awaited<ReturnType<typeof api.panel.promos.availablePromos.get>>["data"]>;
const fieldMessages = {
  code: "panel.promoCodeShort",
  discount: "panel.promoDiscountRange",
  validity: "panel.promoValidityRange",
} as const;
/** Spec §5: field errors clear after 7 seconds. */
export const fieldErrorLifetimeMs = 7000;

function Promo() {
  const { t, language } = useTranslation();
  const [types, setTypes] = useState<{ type: string; name: string }[] | undefined>();
  const [code, setCode] = useState("");
  const [type, setType] = useState("");
  const [discount, setDiscount] = useState(20);
  const [months, setMonths] = useState(1);
  const [isAvailable, setIsAvailable] = useState(true);
  const [errors, setErrors] = useState<Partial<Record<PromoField, true>>>({});
  const [serverMessage, setServerMessage] = useState<string | undefined>();
  const [promos, setPromos] = useState<Promos | undefined>();
  const [page, setPage] = useState(0);
  const clearTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const loadPromos = useCallback(async (number: number) => {
    const { data } = await panelCall((headers) =>
      api.panel.promos.availablePromos.get({
        headers,
        query: { page: number, size: 5, sortBy: "id", sortDirection: "DESC" },
      }),
    );
    if (data) {
      setPromos(data);
      setPage(number);
    }
  }, []);

  useEffect(() => {
    panelCall((headers) => api.panel.promos.promoTypes.get({ headers })).then(({ data }) => {
      setTypes(data ?? []);
      if (data?.[0]) setType(data[0].type);
    });
    void loadPromos(0);
    return () => clearTimeout(clearTimer.current);
  }, [loadPromos]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setServerMessage(undefined);
    const found = promoFieldErrors(code, discount, months);
    setErrors(found);
    clearTimeout(clearTimer.current);
    clearTimer.current = setTimeout(() => setErrors({}), fieldErrorLifetimeMs);
    if (Object.keys(found).length > 0) return;
    try {
      const { data, error } = await panelCall((headers) =>
        api.panel.promos.generatePromo.post(
          {
            promoCode: code,
            promoType: type,
            isAvailable,
            discount: discount / 100,
            expirationDate: expirationAfter(months),
          },
          { headers },
        ),
      );
      const answer = (data ?? error?.value) as { success?: boolean; message?: string } | undefined;
      if (answer?.success) {
        showToast(answer.message ?? code, "success");
        setCode("");
        await loadPromos(0);
      } else {
        setServerMessage(answer?.message ?? t("panel.promoFailed"));
      }
    } catch {
      setServerMessage(t("panel.promoFailed"));
    }
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
                    {item.name}
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
      <section className="card" aria-labelledby="promo-list">
        <h2 id="promo-list">{t("panel.promoList")}</h2>
        {/* Present as the spec has it; searching promo codes is not wired yet. */}
        <input type="search" placeholder={t("panel.promoSearch")} aria-label={t("panel.promoSearch")} />
        {promos && promos.content.length === 0 && <p className="muted">{t("panel.empty")}</p>}
        {promos && promos.content.length > 0 && (
          <table className="panel-table">
            <thead>
              <tr>
                <th>{t("panel.id")}</th>
                <th>{t("panel.promoCode")}</th>
                <th>{t("panel.promoType")}</th>
                <th>{t("panel.promoDiscount")}</th>
                <th>{t("panel.promoExpires")}</th>
              </tr>
            </thead>
            <tbody>
              {promos.content.map((promo) => (
                <tr key={promo.id}>
                  <td>{promo.id}</td>
                  <td>{promo.promoCode}</td>
                  <td>{promo.promoType}</td>
                  <td>{Math.round(promo.discount * 100)}%</td>
                  <td>{formatDate(`${promo.expirationDate}T00:00:00Z`, language)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {promos && (
          <Pager
            page={page}
            totalPages={promos.page.totalPages}
            onChange={(number) => void loadPromos(number)}
          />
        )}
      </section>
    </>
  );
}

export function PanelPromo() {
  return (
    <PanelLayout title={(t) => t("panel.promoTitle")}>
      <Promo />
    </PanelLayout>
  );
}
