// Key-cache invalidation between processes: whatever changes a key (the API, `svc keys revoke`, subscriptions, the
// billing job) tells every process sharing the database to drop it, and waits until each one has, before it returns.
// - With REDIS_URL: Redis pub/sub. PUBLISH answers how many processes received the message.
// - Else, on PostgreSQL: LISTEN/NOTIFY. A listener session takes the application_name LISTENER_ROLE once its LISTEN
//   is in place, so pg_stat_activity tells how many processes listen.
// - The embedded database (PGlite) admits one process at a time (its data-directory lock), so there is no other
//   process to tell: the change is dropped in this process only.
// Protocol: a change is the message `<nonce> <key id>`; each listening process drops the key from its cache, then
// answers `<nonce>` on the acknowledgement channel; the publisher waits for as many acknowledgements as there were
// receivers, at most `waitMs` (the cache TTL: if one never answers, every entry it cached before the change has
// expired by then anyway). A process whose listener is not in place (starting, or its connection dropped) does not
// cache keys at all until it is back (onListening), so a change it cannot hear about cannot be served stale.
import { RedisClient } from "bun";
import type { Notifications } from "../../db/client";
import { describeError, type Logger } from "../logger";

export const INVALIDATE_CHANNEL = "svc_keys_invalidate";
export const ACK_CHANNEL = "svc_keys_ack";
/** The application_name of PostgreSQL listener sessions, counted by publishers. */
export const LISTENER_ROLE = "svc-key-cache";
const RETRY_MS = 500;

export type InvalidationHandlers = {
  /** Drop this key's cached secrets. */
  drop(keyId: string): void;
  /** The listener is in place (true: caching may resume, from empty) or lost (false: stop caching). */
  listening(on: boolean): void;
};

export type InvalidationBus = {
  readonly kind: "redis" | "postgres";
  /** Tells every listening process to drop `keyId`; resolves once each has (or after `waitMs`). */
  publish(keyId: string): Promise<void>;
  close(): Promise<void>;
};

export type BusConnector = (handlers: InvalidationHandlers) => InvalidationBus;

/** Waits for acknowledgements of published changes, by nonce. */
function acknowledgements(waitMs: number) {
  const waiting = new Map<string, { got: number; needed: number; done(): void }>();
  return {
    ack(nonce: string) {
      const w = waiting.get(nonce);
      if (!w) return;
      w.got++;
      if (w.got >= w.needed) w.done();
    },
    /** Registers `nonce` before it is sent (an answer may come back before the sender learns the receiver count). */
    expect(nonce: string) {
      let done!: () => void;
      const settled = new Promise<void>((resolve) => (done = resolve));
      const w = { got: 0, needed: Infinity, done };
      waiting.set(nonce, w);
      return {
        /** Resolves once `needed` answers came, or after waitMs; true when all came. */
        async wait(needed: number): Promise<boolean> {
          w.needed = needed;
          if (w.got >= needed) w.done();
          let timer: ReturnType<typeof setTimeout> | undefined;
          const all = await Promise.race([
            settled.then(() => true),
            new Promise<boolean>((r) => (timer = setTimeout(() => r(false), waitMs))),
          ]);
          clearTimeout(timer);
          waiting.delete(nonce);
          return all;
        },
        cancel: () => waiting.delete(nonce),
      };
    },
  };
}

const parse = (message: string) => {
  const sp = message.indexOf(" ");
  return sp > 0 ? { nonce: message.slice(0, sp), keyId: message.slice(sp + 1) } : null;
};

/** Redis pub/sub. The subscriber connection is this module's own: it is made again after it drops. */
export function redisBus(url: string, opts: { logger: Logger; waitMs: number }): BusConnector {
  return (handlers) => {
    const acks = acknowledgements(opts.waitMs);
    // No offline queue: while Redis is unreachable a publish fails at once (and the publisher waits out the TTL)
    // instead of waiting for a reconnection. So it connects before sending.
    const publisher = new RedisClient(url, {
      enableOfflineQueue: false,
      autoReconnect: false,
      connectionTimeout: 1000,
    });
    const send = async (channel: string, message: string) => {
      if (!publisher.connected) await publisher.connect();
      return publisher.publish(channel, message);
    };
    let subscriber: RedisClient | null = null;
    let closed = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let listening = false;
    const lost = (e: unknown) => {
      if (closed) return;
      // Logged once per outage, not at every retry.
      if (listening)
        opts.logger.warn("key cache: the Redis subscription is lost; keys are not cached until it is back", {
          error: describeError(e),
        });
      listening = false;
      handlers.listening(false);
      clearTimeout(retry);
      retry = setTimeout(subscribe, RETRY_MS);
    };
    function subscribe() {
      if (closed) return;
      const s = new RedisClient(url, { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: 1000 });
      subscriber = s;
      s.onclose = (e) => {
        if (subscriber === s) lost(e);
      };
      // Connected first: without the offline queue, a subscribe sent before the connection is up fails.
      s.connect()
        .then(() =>
          s.subscribe([INVALIDATE_CHANNEL, ACK_CHANNEL], (message, channel) => {
            if (channel === ACK_CHANNEL) return acks.ack(message);
            const m = parse(message);
            if (!m) return;
            handlers.drop(m.keyId);
            send(ACK_CHANNEL, m.nonce).catch(() => {});
          }),
        )
        .then(
          () => {
            if (subscriber !== s || closed) return;
            listening = true;
            handlers.listening(true);
          },
          (e) => {
            if (subscriber !== s) return;
            subscriber = null;
            s.close();
            lost(e);
          },
        );
    }
    subscribe();
    return {
      kind: "redis",
      async publish(keyId) {
        const nonce = crypto.randomUUID();
        const pending = acks.expect(nonce);
        let receivers: number;
        try {
          receivers = await send(INVALIDATE_CHANNEL, `${nonce} ${keyId}`);
        } catch (e) {
          pending.cancel();
          opts.logger.error(
            "key cache: Redis publish failed; waiting out the cache TTL so no process serves the old key",
            { error: describeError(e) },
          );
          await Bun.sleep(opts.waitMs);
          return;
        }
        await pending.wait(receivers);
      },
      async close() {
        closed = true;
        clearTimeout(retry);
        const s = subscriber;
        subscriber = null;
        s?.close();
        publisher.close();
      },
    };
  };
}

/** PostgreSQL LISTEN/NOTIFY through the database's notifications (a listener connection of its own). */
export function postgresBus(notifications: Notifications, opts: { logger: Logger; waitMs: number }): BusConnector {
  return (handlers) => {
    const acks = acknowledgements(opts.waitMs);
    let wasListening = false;
    // A listener closed on purpose (the process stops, a CLI command ends) is not lost.
    let closing = false;
    const listener = notifications.listen(
      LISTENER_ROLE,
      [INVALIDATE_CHANNEL, ACK_CHANNEL],
      (channel, payload) => {
        if (channel === ACK_CHANNEL) return acks.ack(payload);
        const m = parse(payload);
        if (!m) return;
        handlers.drop(m.keyId);
        notifications.notify(ACK_CHANNEL, m.nonce).catch(() => {});
      },
      (on) => {
        handlers.listening(on);
        if (!on && wasListening && !closing)
          opts.logger.warn("key cache: the PostgreSQL listener is lost; keys are not cached until it is back");
        wasListening = on;
      },
    );
    return {
      kind: "postgres",
      async publish(keyId) {
        const nonce = crypto.randomUUID();
        const pending = acks.expect(nonce);
        let receivers: number;
        try {
          // Counted first: a listener that joins in between answers too (harmless); one that leaves in between is
          // waited for until waitMs.
          receivers = await notifications.listenerCount(LISTENER_ROLE);
          await notifications.notify(INVALIDATE_CHANNEL, `${nonce} ${keyId}`);
        } catch (e) {
          pending.cancel();
          opts.logger.error("key cache: NOTIFY failed; waiting out the cache TTL so no process serves the old key", {
            error: describeError(e),
          });
          await Bun.sleep(opts.waitMs);
          return;
        }
        await pending.wait(receivers);
      },
      close: () => {
        closing = true;
        return listener.close();
      },
    };
  };
}
