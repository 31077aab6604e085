import { type ApiData, api } from "../lib/api-client";
import { type Answer, panelQuery } from "./panel-query";
import { panelCall } from "./panel-session";

export type ReceiptsPage = ApiData<typeof api.panel.checks.post>;
export type InviteesPage = ApiData<typeof api.panel.invitations.getInviteesByInviterId.post>;
export type ConnectionLogs = ApiData<typeof api.panel.logs.post>;

type ListQuery = { userId: number; page: number; size: number };

/** Receipts: the spec's 3 a page by default, more on request. */
export const receiptSizes = [3, 10, 25, 50] as const;
export type ReceiptSize = (typeof receiptSizes)[number];

/** One customer's paged records, as the receipts, invitees and connection-log pages show them. */
function customerList<T>(size: number, load: (query: ListQuery) => Promise<Answer<T>>) {
  const list = panelQuery<ListQuery, T>({ userId: 0, page: 0, size }, load);
  return {
    $query: list.$query,
    $loaded: list.$loaded,
    retry: list.retry,
    open: (userId: number) => list.ask({ ...list.$query.get(), userId, page: 0 }),
    showPage: (page: number) => list.ask({ ...list.$query.get(), page }),
    /** Another page size starts the list again at its first page. */
    resize: (size: number) => list.ask({ ...list.$query.get(), size, page: 0 }),
  };
}

export type CustomerList<T> = ReturnType<typeof customerList<T>>;

export const receipts = customerList<ReceiptsPage>(receiptSizes[0], ({ userId, page, size }) =>
  panelCall((headers) => api.panel.checks.post({}, { headers, query: { userId, page, size } })),
);

export const invitees = customerList<InviteesPage>(10, ({ userId, page, size }) =>
  panelCall((headers) =>
    api.panel.invitations.getInviteesByInviterId.post(
      {},
      { headers, query: { userId, size, page, sortBy: "created", sortDirection: "DESC" } },
    ),
  ),
);

/** The connection log comes whole: one page. */
export const connectionLogs = customerList<ConnectionLogs>(0, ({ userId }) =>
  panelCall((headers) => api.panel.logs.post({}, { headers, query: { userId } })),
);
