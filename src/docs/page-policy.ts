// The headers every HTML page gets unless it sets its own policy (the keys page does, with its script's hash): no page
// may be framed (frame-ancestors, X-Frame-Options), no response is sniffed into another type, and a page loads only
// what this server serves. The landing, briefing and checkout pages run no script at all; the /docs reference runs
// the self-hosted Scalar bundle and the inline start-up the Scalar page template writes.
const COMMON = { "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer" };

export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...COMMON,
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
});

export const DOCS_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...COMMON,
  "Content-Security-Policy":
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
});

/** The headers of an HTML answer at `path` that set no Content-Security-Policy of their own. */
export function pageHeaders(path: string): Readonly<Record<string, string>> {
  return path === "/docs" || path.startsWith("/docs/") ? DOCS_PAGE_HEADERS : PAGE_HEADERS;
}
