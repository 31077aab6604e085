import { type ApiData, api } from "../lib/api-client";
import { panelQuery } from "./panel-query";
import { panelCall } from "./panel-session";

export type SearchPage = ApiData<typeof api.panel.users.search.post>;

/** The customer search: part of an e-mail and a page of ten, by id. */
const search = panelQuery({ part: "", page: 0 }, ({ part, page }) =>
  panelCall((headers) =>
    api.panel.users.search.post({}, { headers, query: { page, size: 10, sortBy: "id", emailPart: part } }),
  ),
);

export const $searchQuery = search.$query;
export const $searchResult = search.$loaded;
export const retrySearch = search.retry;

/** The first page of every customer, as the screen opens. */
export const openSearch = () => search.ask(search.$query.get());

export const searchCustomers = (part: string) => search.ask({ part: part.trim(), page: 0 });

export const showSearchPage = (page: number) => search.ask({ ...search.$query.get(), page });
