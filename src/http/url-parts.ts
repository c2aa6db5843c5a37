// Parts of a request URL read on every request without parsing it into a URL object.

/** The path and query of a request URL (the same URL on another Host names the same resource). */
export function requestTarget(url: string): string {
  return url.slice(url.indexOf("/", url.indexOf("//") + 2));
}

/** The query string of the request URL, without `?` ("" when there is none). */
export function rawQuery(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return "";
  const hash = url.indexOf("#", q);
  return hash < 0 ? url.slice(q + 1) : url.slice(q + 1, hash);
}
