// The app's router. Hono's regular-expression router matches a request with one regex, but cannot hold a path
// parameter that has a sibling (RegExpRouter refuses `/v1/briefings/{id}` beside `/v1/briefings/public`), and the
// spec's briefing paths overlap that way: `/v1/briefings/public` is also an `{id}`, and `/v1/briefings/public/runs`
// matches both `/v1/briefings/public/{slug}` and `/v1/briefings/{id}/runs`. Left to Hono's default router, one such
// pair moves every route of the app to the trie router. So the subtree under `/v1/briefings/` alone is matched by the
// trie router, and every other path by the regular-expression router. A route or middleware that may match paths on
// both sides (`*`) is added to both, so each side lists its handlers in registration order, as one router would.
import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

/** The request paths whose routes overlap (spec "Briefings"). */
export const OVERLAPPING_PREFIX = "/v1/briefings/";

export class ServiceRouter<T> implements Router<T> {
  readonly name = "ServiceRouter";
  // A SmartRouter, as Hono's default: should a route the regex cannot hold appear elsewhere, it still works (on the
  // trie), and the test on activeRouter says so.
  private readonly main = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
  private readonly overlapping = new TrieRouter<T>();

  /** The router that matches every path outside the overlapping subtree (known once the first request was matched). */
  get activeRouter(): Router<T> {
    return this.main.activeRouter;
  }

  add(method: string, path: string, handler: T): void {
    if (!path.startsWith(OVERLAPPING_PREFIX)) this.main.add(method, path, handler);
    if (mayMatchUnder(path, OVERLAPPING_PREFIX)) this.overlapping.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    return path.startsWith(OVERLAPPING_PREFIX) ? this.overlapping.match(method, path) : this.main.match(method, path);
  }
}

/**
 * Whether a route path may match request paths that start with `prefix`: it starts with it, or it is not static and
 * its static head (before the first parameter or wildcard) is the start of `prefix`.
 */
export function mayMatchUnder(path: string, prefix: string): boolean {
  if (path.startsWith(prefix)) return true;
  const dynamic = path.search(/[:*]/);
  return dynamic !== -1 && prefix.startsWith(path.slice(0, dynamic));
}
