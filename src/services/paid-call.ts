// One call of a paid operation, whoever hands it in (a REST request, src/http/paid.ts; an MCP tool call,
// src/routes/mcp.ts), with no framework object (DESIGN.md "The paid-route pipeline", the order is the design):
//   validated query -> resolve, which only reads: serve (heads included), a series to provision, or a free answer
//   -> a series to provision is started here and answered 202, free -> quote -> the admission core
//   (src/services/admission.ts) -> the operation's answer (data: JSON, or a rendered page) -> meter or settle once
//   served; released when the answer fails. The page memo's hits pass through the same gate (gate below).
// Synchronous while every step is (a memo hit of a cached key): each await costs a promise and a turn per request.
import type { Credential } from "../domain/keys";
import { quote as priceQuote, type Quote, type Serving, type Surface } from "../pricing";
import type { ProvisioningBody } from "../schemas/provisioning";
import type { Admission, Admitted, PaymentDescription, ReadPolicy, Refusal, Served, Verdict } from "./admission";
import type { NotHeld } from "./provisioning";
import type { ProvisioningCaller } from "./provisioning-budget";
import type { RenderedJson } from "./rendered";
import type { Provision, Readable } from "./series-read";

/**
 * What resolve decided, having only read: serve (after admission) what it will read, with everything the answer
 * needs (the series heads included); provision a series offered but not held (started by runPaid, answered 202
 * before any payment); answer for free (a 200 that needs no data); or decline a request the operation words its own
 * refusal of (a compatibility surface's 400, in its error shape: the host's dialect renders it), free too.
 * `provisions`: series a served answer reports as not held yet (the batch form), started before admission and handed
 * to the answer in that order.
 */
export type Resolution<S extends Serving> =
  | { kind: "serve"; serving: S; provisions?: readonly Provision[] }
  | { kind: "provisioning"; provision: Provision }
  | { kind: "free"; body: unknown }
  | { kind: "declined"; declined: Declined };

/** A client's mistake an operation refuses in its own words, before any payment (always a 400). */
export type Declined = { status: 400; message: string };

export const serve = <S extends Serving>(serving: S, provisions?: readonly Provision[]): Resolution<S> => ({
  kind: "serve",
  serving,
  ...(provisions?.length ? { provisions } : {}),
});
export const provisioning = (provision: Provision): Resolution<never> => ({ kind: "provisioning", provision });
export const freeAnswer = (body: unknown): Resolution<never> => ({ kind: "free", body });
export const declined = (message: string): Resolution<never> => ({
  kind: "declined",
  declined: { status: 400, message },
});

/** serve(`held(target)`) for a target found held, else provisioning what was found not held. */
export function serveHeld<T, S extends Serving>(found: Readable<T>, held: (target: T) => S): Resolution<S> {
  return found.kind === "held" ? serve(held(found.target)) : provisioning(found.provision);
}

/**
 * What an operation may read of the call besides its query: headers (Accept), path parameters, and the client's
 * address (per-caller limits on work the answer starts, such as chart renders; null when unknown).
 */
export type Asked = {
  header(name: string): string | undefined;
  param(name: string): string | undefined;
  client: string | null;
};

/**
 * An operation's answer, as data: JSON with its status (and, where the same answer has a page for people, `html`,
 * which an HTTP client preferring HTML is sent instead), or a rendered page (one Blob, compressed once per coding).
 */
export type Answer =
  | { kind: "json"; status: 200 | 207; body: unknown; headers?: Record<string, string>; html?: () => Promise<string> }
  | { kind: "page"; page: RenderedJson; vary?: string };

export const jsonAnswer = (
  body: unknown,
  status: 200 | 207 = 200,
  extra: { headers?: Record<string, string>; html?: () => Promise<string> } = {},
): Answer => ({ kind: "json", status, body, ...extra });
export const pageAnswer = (page: RenderedJson, vary?: string): Answer => ({
  kind: "page",
  page,
  ...(vary ? { vary } : {}),
});

/** A paid operation: how it resolves, is priced and entitled, and answers (src/http/paid.ts registers it as a route). */
export type PaidSpec<Q, S extends Serving> = {
  surface: Surface | ((served: S) => Surface);
  /** How a key is entitled to the reads `resolve` names (src/services/admission.ts ReadPolicy), fixed or per request. */
  reads: ReadPolicy | ((served: S) => ReadPolicy);
  /** Everything the call will read, before any payment is asked; never writes. A 404 is thrown (ApiError), free. */
  resolve(query: Q, asked: Asked): Promise<Resolution<S>>;
  /**
   * `admitted.refused`: per read of `served.reads`, the refusal of one the answer leaves out (policies any, each).
   * `started`: what starting each of the resolution's `provisions` gave, in order.
   */
  answer(served: S, admitted: Admitted, started: readonly NotHeld[], asked: Asked): Promise<Answer>;
};

/** One call: its validated query, what it asks with, and how the admission core and payment rails see it. */
export type PaidCall<Q> = {
  query: Q;
  asked: Asked;
  credential: Credential;
  /** The absolute URL of the request (the REST URL an MCP call stands for): what a payment is bound to. */
  url: string;
  admission: Admission;
  describe(): PaymentDescription;
  /** Who asks, when a series must be provisioned (src/services/provisioning-budget.ts). */
  caller(): Promise<ProvisioningCaller>;
  /** Told the verdict before the answer runs: the host sets the key and its rate headers on what it answers. */
  admitted(verdict: Admitted): void;
};

/** What an answer was admitted for: the resolution, its quote and how the payment rails describe the request. */
export type Priced = { serving: Serving; quote: Quote; policy: ReadPolicy; payment: () => PaymentDescription };

/** The gate's outcome: refused (before the answer, or its settlement failed), or served with its payment receipt. */
export type Gated =
  | { kind: "refused"; refusal: Refusal }
  | { kind: "served"; answer: Answer; receipt: Readonly<Record<string, string>> | null };

export type Outcome<S> =
  | { kind: "provisioning"; body: ProvisioningBody }
  | { kind: "free"; body: unknown }
  | { kind: "declined"; declined: Declined }
  | (Gated & { served: S; priced: Priced });

/** Runs one call of `spec` (see the file comment). A thrown error is the host's to render (ApiError: the envelope). */
export async function runPaid<Q, S extends Serving>(
  spec: PaidSpec<Q, S>,
  now: () => Date,
  call: PaidCall<Q>,
): Promise<Outcome<S>> {
  let resolution = await spec.resolve(call.query, call.asked);
  if (resolution.kind === "provisioning") {
    // Provisioning starts here, never in resolve: a 202, or its refusal, before any payment is asked.
    const started = await resolution.provision.start(await call.caller());
    if (started.kind === "provisioning") return { kind: "provisioning", body: started.body };
    if (started.kind === "refused") throw started.error;
    // Its fetch finished while this call looked (the cache was told): resolved again, it is served.
    resolution = await spec.resolve(call.query, call.asked);
    if (resolution.kind === "provisioning") throw new Error("a series found held was resolved as not held again");
  }
  // What needs no data, and what the operation declines, cost nothing.
  if (resolution.kind === "free" || resolution.kind === "declined") return resolution;
  const served = resolution.serving;
  const provisions = resolution.provisions ?? [];
  const started = provisions.length === 0 ? [] : await startAll(provisions, await call.caller());
  const quote = priceQuote(typeof spec.surface === "function" ? spec.surface(served) : spec.surface, served);
  const policy = typeof spec.reads === "function" ? spec.reads(served) : spec.reads;
  const priced: Priced = { serving: served, quote, policy, payment: call.describe };
  const gated = await gate(call, now(), priced, (admitted) => spec.answer(served, admitted, started, call.asked));
  return { ...gated, served, priced };
}

/** Starts each provision in turn (each may be refused by the provisioning budget, which counts them in order). */
async function startAll(provisions: readonly Provision[], caller: ProvisioningCaller): Promise<NotHeld[]> {
  const out: NotHeld[] = [];
  for (const p of provisions) out.push(await p.start(caller));
  return out;
}

/**
 * The admission core's verdict on a priced call, the answer (run only when admitted), then meter or settle once it
 * is built; released when it throws. Cold calls and page memo hits both answer through it.
 */
export function gate(
  call: Pick<PaidCall<unknown>, "admission" | "credential" | "asked" | "url" | "admitted">,
  now: Date,
  priced: Priced,
  answer: (admitted: Admitted) => Answer | Promise<Answer>,
): Gated | Promise<Gated> {
  const { admission } = call;
  const verdict = admission.admit({
    purpose: "paid",
    credential: call.credential,
    now,
    quote: priced.quote,
    serving: priced.serving,
    policy: priced.policy,
    header: call.asked.header,
    url: call.url,
    describe: priced.payment,
  });
  const admitted = (v: Verdict): Gated | Promise<Gated> => {
    if (!v.ok) return { kind: "refused", refusal: v };
    call.admitted(v);
    let out: Answer | Promise<Answer>;
    try {
      out = answer(v);
    } catch (e) {
      return admission.notServed(v).then(() => Promise.reject(e));
    }
    if (out instanceof Promise)
      return out.then(
        (a) => settled(admission, v, now, a),
        (e) => admission.notServed(v).then(() => Promise.reject(e)),
      );
    return settled(admission, v, now, out);
  };
  return verdict instanceof Promise ? verdict.then(admitted) : admitted(verdict);
}

/** Metered (or settled) before the answer leaves: a usage journal that cannot be written refuses, nothing is served unmetered. */
function settled(admission: Admission, verdict: Admitted, now: Date, answer: Answer): Gated | Promise<Gated> {
  const served = admission.served(verdict, now);
  const withReceipt = (s: Served): Gated =>
    s.ok ? { kind: "served", answer, receipt: s.receipt } : { kind: "refused", refusal: s };
  return served instanceof Promise ? served.then(withReceipt) : withReceipt(served);
}
