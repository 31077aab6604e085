import { t } from "elysia";
import { AppError } from "./errors";

/** The paged answer of every panel list (DESIGN §7). */
export type Page<T> = {
  content: T[];
  page: { size: number; number: number; totalElements: number; totalPages: number };
};

export function paged<T>(content: T[], number: number, size: number, totalElements: number): Page<T> {
  return { content, page: { size, number, totalElements, totalPages: Math.ceil(totalElements / size) } };
}

export const pageQuery = {
  page: t.Optional(t.Numeric({ minimum: 0, maximum: 1_000_000 })),
  size: t.Optional(t.Numeric({ minimum: 1, maximum: 100 })),
};

/** Each list has the spec's page size; a list may also offer `otherSizes` to choose from. */
export function pageOf(
  query: { page?: number; size?: number },
  defaultSize: number,
  otherSizes: readonly number[] = [],
) {
  const number = Math.floor(query.page ?? 0);
  const size = Math.floor(query.size ?? defaultSize);
  const sizes = [defaultSize, ...otherSizes];
  if (!sizes.includes(size)) throw new AppError("invalid_page_size", { sizes: sizes.join(", ") });
  return { number, size, offset: number * size };
}
