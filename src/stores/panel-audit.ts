import { type ApiData, api } from "../lib/api-client";
import { panelQuery } from "./panel-query";
import { panelCall } from "./panel-session";

export type AuditPage = ApiData<typeof api.panel.audit.get>;
export type AuditEntry = AuditPage["content"][number];

/** The audit log, newest first, twenty entries a page. */
const audit = panelQuery({ page: 0 }, ({ page }) =>
  panelCall((headers) => api.panel.audit.get({ headers, query: { page, size: 20 } })),
);

export const $auditQuery = audit.$query;
export const $auditLog = audit.$loaded;
export const retryAudit = audit.retry;

export const openAudit = () => audit.ask(audit.$query.get());

export const showAuditPage = (page: number) => audit.ask({ page });
