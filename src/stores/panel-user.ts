import { type ApiData, api } from "../lib/api-client";
import { panelQuery } from "./panel-query";
import { panelCall, selectPerson } from "./panel-session";

export type Customer = ApiData<typeof api.panel.users.getUserById.post>;

/**
 * The customer a per-customer page opened, by the URL's id. Once loaded it becomes this
 * browser's chosen customer: the refund picks the account by its uid.
 */
const customer = panelQuery(
  { id: 0 },
  ({ id }) => panelCall((headers) => api.panel.users.getUserById.post({}, { headers, query: { id } })),
  { onReady: (loaded) => selectPerson({ id: loaded.id, email: loaded.email, uid: loaded.uid }) },
);

export const $customer = customer.$loaded;
export const retryCustomer = customer.retry;

export const loadCustomer = (id: number) => customer.ask({ id });

/** Active, or cancelled and still paid to its end: only then are its devices and its management page shown. */
export const hasRunningSubscription = (loaded: Customer) =>
  loaded.subscription.status === "ACTIVE" || loaded.subscription.status === "CANCELED";
