// The page memo's key of a request (the memo itself is src/services/page-memo.ts): its target, and the format its
// Accept header chose (content-coding.ts acceptedFormat), so the same URL may be recorded as JSON and as CSV.
import type { Context } from "hono";
import { acceptedFormat } from "./content-coding";
import { requestTarget } from "./url-parts";

/** `url`: the request URL without any secret it carries (paid.ts Dialect publicUrl), by default as it came. */
export function pageMemoKey(c: Context, url: string = c.req.url): string {
  return pageMemoKeyFor(acceptedFormat(c.req.header("accept")), url);
}

/** The key of a request for `url` in `format` (an MCP call asks for JSON). */
export function pageMemoKeyFor(format: string, url: string): string {
  return `${format} ${requestTarget(url)}`;
}
