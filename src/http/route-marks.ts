// Marks a route carries from where it is registered (src/routes/*) to the app middleware that runs before its
// handler: a value kept on the handler under a symbol, found through the routes the request matched. The paid
// marker (paid-marker.ts) and a route's admission purpose (route-purpose.ts) are such marks.

/** Sets `value` on `handler` under `key` (once; a handler is registered once). */
export function markHandler(handler: object, key: symbol, value: unknown): void {
  Object.defineProperty(handler, key, { value });
}

/**
 * A reader of the mark under `key`: the value on a route handler, undefined on a handler without it. Remembered per
 * handler: the router's handlers are fixed once routes are registered, and asked on every request.
 */
export function markReader<T>(key: symbol): (handler: unknown) => T | undefined {
  const known = new WeakMap<object, T | null>();
  return (handler) => {
    if (typeof handler !== "function") return undefined;
    const seen = known.get(handler);
    if (seen !== undefined) return seen ?? undefined;
    // Hono wraps handlers of mounted sub-apps and keeps the original under a symbol key.
    const candidates = [handler, ...Object.getOwnPropertySymbols(handler).map((s) => (handler as any)[s])];
    const value = candidates.map((h) => (typeof h === "function" ? (h as any)[key] : undefined)).find((v) => v !== undefined) as T | undefined;
    known.set(handler, value ?? null);
    return value;
  };
}
