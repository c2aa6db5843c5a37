// Parts of a request URL read on every request without parsing it into a URL object.

/** The path and query of a request URL (the same URL on another Host names the same resource). */
export function requestTarget(url: string): string {
  return url.slice(url.indexOf("/", url.indexOf("//") + 2));
}

/** Longest path an error message repeats; longer ones are cut, with "…". */
const QUOTED_PATH_MAX = 200;

/**
 * A request path as an error message may repeat it: percent-encoded past the characters of a plain path (letters,
 * digits, "-._~/" and escapes already made), so no markup, quote or control character of the request reaches an
 * answer, and at most 200 characters. The path as parsed is already escaped, except for a few characters ("'", "!",
 * "(", ")", "*", ",", ";", "=", "@", ":" and "$" stay as sent): those are escaped here too.
 */
export function quotedPath(pathname: string): string {
  const safe = pathname.replace(/[^A-Za-z0-9\-._~/%]/g, (ch) =>
    encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
  );
  return safe.length > QUOTED_PATH_MAX ? `${safe.slice(0, QUOTED_PATH_MAX)}…` : safe;
}

/** `url` without the query parameter `name` (every occurrence); the rest of the query kept as sent, in order. */
export function withoutQueryParameter(url: string, name: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const hash = url.indexOf("#", q);
  const query = hash < 0 ? url.slice(q + 1) : url.slice(q + 1, hash);
  const kept = query.split("&").filter((part) => {
    const eq = part.indexOf("=");
    const raw = eq < 0 ? part : part.slice(0, eq);
    let key = raw;
    try {
      key = decodeURIComponent(raw.replace(/\+/g, " "));
    } catch {
      // A malformed escape is refused by the request guard before any route; kept as written here.
    }
    return key !== name;
  });
  return `${url.slice(0, q)}${kept.length ? `?${kept.join("&")}` : ""}${hash < 0 ? "" : url.slice(hash)}`;
}
