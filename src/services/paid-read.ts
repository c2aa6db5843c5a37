// What a priced read is, as data shared by the admission core (admission.ts) and the page memo (page-memo.ts), which
// both hold it: how the payment rails describe it and how a key is entitled to its reads.

/** How a request's route and query are described to the payment rails (x402 resource and bazaar discovery). */
export type PaymentDescription = {
  method: string;
  query: Record<string, string>;
  pathParams: Record<string, string>;
  shape: {
    queryParamsSchema: { properties: Record<string, unknown>; required?: string[] };
    outputSchema?: Record<string, unknown>;
  } | null;
};

/**
 * How a key is entitled to the reads of a priced request (reads of other plans or regions than the key's):
 * - `all`: every read, else the first refusal refuses the request;
 * - `any`: at least one, else the first refusal; the answer leaves out the refused ones (an ask answer);
 * - `each`: each on its own, the request is admitted whatever they are (a batch reports the refused ones).
 */
export type ReadPolicy = "all" | "any" | "each";
