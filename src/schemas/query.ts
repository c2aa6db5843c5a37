// Query-string parameter schemas shared by routes. Query values arrive as strings: these parse them strictly (no
// zod coercion, which turns "" into 0 and "1e1" into 10) and still document the parameter as an integer or boolean.
import { z } from "@hono/zod-openapi";

/** An integer parameter in [min, max] (max optional), written in plain decimal digits, with a default. */
export function integerQuery(opts: { name: string; min: number; max?: number; default: number; description: string }) {
  return integerText(opts)
    .optional()
    .transform((v) => v ?? opts.default)
    .openapi({ ...integerDoc(opts), default: opts.default });
}

/** The same without a default: absent stays undefined (the route decides what no value means). */
export function optionalIntegerQuery(opts: { name: string; min: number; max?: number; description: string }) {
  return integerText(opts).optional().openapi(integerDoc(opts));
}

const boundsOf = (opts: { min: number; max?: number }) =>
  opts.max === undefined ? `>= ${opts.min}` : `${opts.min} to ${opts.max}`;

function integerText(opts: { min: number; max?: number }) {
  const bounds = boundsOf(opts);
  return (
    z
      .string()
      // Plain digits only (a sign only where negatives are allowed): `+5`, ` 5`, `1e2` and `0x10` are refused, as on /v1/observations.
      .regex(opts.min >= 0 ? /^\d+$/ : /^-?\d+$/, { message: `must be an integer (${bounds})` })
      .transform(Number)
      .pipe(
        opts.max === undefined
          ? z
              .number()
              .int()
              .min(opts.min, { message: `must be ${bounds}` })
          : z
              .number()
              .int()
              .min(opts.min, { message: `must be ${bounds}` })
              .max(opts.max, { message: `must be ${bounds}` }),
      )
  );
}

function integerDoc(opts: { name: string; min: number; max?: number; description: string }) {
  return {
    param: { name: opts.name, in: "query" as const },
    type: "integer" as const,
    minimum: opts.min,
    ...(opts.max === undefined ? {} : { maximum: opts.max }),
    description: opts.description,
  };
}

/** A boolean parameter: `true` or `false` (anything else is a 400), with a default. */
export function booleanQuery(opts: { name: string; default: boolean; description: string }) {
  return z
    .enum(["true", "false"], { message: "must be true or false" })
    .optional()
    .transform((v) => (v === undefined ? opts.default : v === "true"))
    .openapi({
      param: { name: opts.name, in: "query" },
      type: "boolean",
      default: opts.default,
      description: opts.description,
    });
}
