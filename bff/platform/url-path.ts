/** The path of a request URL without building a URL object: this runs for every request. */
export function pathOf(url: string): string {
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  if (pathStart < 0) return "/";
  let end = url.length;
  for (const separator of ["?", "#"]) {
    const index = url.indexOf(separator, pathStart);
    if (index >= 0 && index < end) end = index;
  }
  return url.slice(pathStart, end);
}
