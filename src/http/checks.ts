// Checks that run before the handler and answer nothing after it (a header set through the context, a context
// variable, a refusal), listed in order in src/app.ts and run in one middleware layer: each layer of Hono's chain
// costs a closure, a promise and an await on every request, which showed on a page memo hit (PERFORMANCE.md).
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";

/** Answers the request (a Response) or lets it go on (null or nothing). May throw an ApiError (onError answers it). */
export type Check = (c: Context<AppEnv>) => Response | null | void | Promise<Response | null | void>;

/** The checks in order: the first answer ends the request. Synchronous while every check is. */
export function inOrder(...checks: readonly Check[]): MiddlewareHandler<AppEnv> {
  const from = async (
    c: Context<AppEnv>,
    next: () => Promise<void>,
    i: number,
    pending: Promise<Response | null | void>,
  ): Promise<Response | void> => {
    const answer = await pending;
    if (answer) return answer;
    return run(c, next, i + 1);
  };
  const run = (c: Context<AppEnv>, next: () => Promise<void>, start: number): Promise<Response | void> => {
    for (let i = start; i < checks.length; i++) {
      const answer = checks[i]!(c);
      if (answer instanceof Promise) return from(c, next, i, answer);
      if (answer) return Promise.resolve(answer);
    }
    return next();
  };
  return function inOrderMiddleware(c, next) {
    return run(c, next, 0);
  };
}
