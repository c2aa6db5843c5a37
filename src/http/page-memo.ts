// The page memo's key of a request (the memo itself is src/services/page-memo.ts): its target, and the format its
// Accept header chose (content-coding.ts acceptedFormat), so the same URL may be recorded as JSON and as CSV.
import type { Context } from "hono";
import { acceptedFormat } from "./content-coding";
import { requestTarget } from "./url-parts";

export function pageMemoKey(c: Context): string {
  return `${acceptedFormat(c.req.header("accept"))} ${requestTarget(c.req.url)}`;
}
