/** The path of a request URL without building a URL object: this runs for every request. */
export function pathOf(url: string): string {
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  if (pathStart < 0) return "/";
  const query = url.indexOf("?", pathStart);
  const fragment = url.indexOf("#", pathStart);
  const end = query < 0 ? fragment : fragment < 0 ? query : Math.min(query, fragment);
  return end < 0 ? url.slice(pathStart) : url.slice(pathStart, end);
}
