import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { fractionToPercent } from "../../../core/money";
import { formatDate } from "../../lib/format";
import { useTranslation } from "../../lib/i18n/use-translation";
import {
  $promoDraft,
  $promoFieldErrors,
  $promoList,
  $promoListQuery,
  $promoRefusal,
  $promoSearch,
  $promoTypes,
  $promoTypesFailure,
  createPromo,
  editPromo,
  editPromoSearch,
  loadPromoTypes,
  openPromos,
  retryPromoList,
  searchPromos,
  showPromoPage,
} from "../../stores/panel-promo";
import { Pager, PanelLayout } from "./PanelLayout";
import { Empty, Failed, Loading, ScrollRegion } from "./PanelStates";

const fieldMessages = {
  code: "panel.promoCodeShort",
  discount: "panel.promoDiscountRange",
  validity: "panel.promoValidityRange",
} as const;

function Promo() {
  const { t } = useTranslation();
  const types = useStore($promoTypes);
  const typesFailure = useStore($promoTypesFailure);
  const { code, type, discount, months, isAvailable } = useStore($promoDraft);
  const errors = useStore($promoFieldErrors);
  const serverMessage = useStore($promoRefusal);
  useEffect(() => {
    void openPromos();
  }, []);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    void createPromo();
  };

  return (
    <>
      <section className="card" aria-labelledby="promo-generator">
        <h2 id="promo-generator">{t("panel.promoGenerator")}</h2>
        {/* The form waits for the kinds: a code sent before them would have none and be refused. */}
        {typesFailure ? (
          <Failed failure={typesFailure} onRetry={() => void loadPromoTypes()} />
        ) : types === undefined ? (
          <Loading />
        ) : types.length === 0 ? (
          <p role="alert">{t("panel.promoNoTypes")}</p>
        ) : (
          <form className="form" onSubmit={submit} noValidate>
            <label className="field">
              <span>{t("panel.promoCode")}</span>
              <input
                value={code}
                onChange={(event) => editPromo("code", event.target.value)}
                maxLength={64}
                aria-invalid={errors.code}
              />
              {errors.code && <span className="form__error">{t(fieldMessages.code)}</span>}
            </label>
            <label className="field">
              <span>{t("panel.promoType")}</span>
              <select value={type} onChange={(event) => editPromo("type", event.target.value)}>
                {(types ?? []).map((item) => (
                  <option key={item.type} value={item.type}>
                    {/* Named by the server, in the operator's language. */}
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
                onChange={(event) => editPromo("discount", Number(event.target.value))}
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
                onChange={(event) => editPromo("months", Number(event.target.value))}
                aria-invalid={errors.validity}
              />
              {errors.validity && <span className="form__error">{t(fieldMessages.validity)}</span>}
            </label>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={isAvailable}
                onChange={(event) => editPromo("isAvailable", event.target.checked)}
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
      <PromoList />
    </>
  );
}

/** The available codes, newest first, filtered by part of the code. */
function PromoList() {
  const { t, language } = useTranslation();
  const search = useStore($promoSearch);
  const query = useStore($promoListQuery);
  const loaded = useStore($promoList);
  const promos = loaded.state === "ready" ? loaded.data : undefined;
  return (
    <section className="card" aria-labelledby="promo-list">
      <h2 id="promo-list">{t("panel.promoList")}</h2>
      <form
        className="panel-search"
        onSubmit={(event) => {
          event.preventDefault();
          void searchPromos();
        }}
      >
        <label className="field">
          <span>{t("panel.promoSearch")}</span>
          <input
            type="search"
            value={search}
            onChange={(event) => editPromoSearch(event.target.value)}
            maxLength={64}
          />
        </label>
        <button type="submit" className="button button--primary">
          {t("panel.searchButton")}
        </button>
      </form>
      {loaded.state === "loading" && <Loading />}
      {loaded.state === "failed" && <Failed failure={loaded} onRetry={() => void retryPromoList()} />}
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
                  <td>{Math.round(fractionToPercent(promo.discount))}%</td>
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
          onChange={(page) => void showPromoPage(page)}
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
