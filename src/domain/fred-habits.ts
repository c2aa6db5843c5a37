// FRED's query vocabulary translated to ours. Many callers arrive with FRED's API in their fingers (or in their
// agent's training data): `observation_start=`, `units=pch`, `frequency=m`, `api_key=`. The spec fixes our query
// parameters, so such a request stays a 400, but the answer says what to send instead, from the tables below.
//
// Two kinds of habit:
// - a FRED parameter name (unknown here): the request guard names our parameter, and for `units` and
//   `aggregation_method` the value to give it;
// - a FRED value on one of our own parameters (`frequency=m`, `transform=pch`, `resample_method=avg`): the
//   validation hook names our value.
// A translation is only offered when the operation takes what it names, so it never sends a caller to a parameter
// or value that would be refused in turn. Values are looked up, never echoed: what reaches a message is this
// module's own text (an `api_key` value is a secret and must not come back in a body or a log line).
import { RESAMPLE_METHODS } from "./resample";
import { TRANSFORM_SYNTAX } from "./transforms";

/** One habit translated: `fred` as the caller wrote it (name, or name=value for a known value), our equivalents. */
export type FredTranslation = {
  fred: string;
  /** What to send instead: a parameter, `parameter=value` pairs, or headers; empty when nothing here is equivalent. */
  ours: string[];
  /** One sentence, for the error message. */
  message: string;
};

/**
 * A FRED value: what it means in FRED's words, our values for the same thing, and the sentence's predicate when
 * "is <parameter>=<our value> here" does not say it.
 */
type ValueRule = { means: string; ours: string[]; says?: string };

// FRED `units` (fred/series/observations) against src/domain/transforms.ts. FRED's pch compares with the previous
// period of the series' own frequency; here that comparison is named by its length, so it depends on the series.
const NO_ABSOLUTE_CHANGE = `has no equivalent here: no transform offers an absolute change (transform takes ${TRANSFORM_SYNTAX})`;
const NO_COMPOUNDED_RATE = `has no equivalent here: no transform offers a compounded rate of change (transform takes ${TRANSFORM_SYNTAX})`;
const UNITS: Record<string, ValueRule> = {
  lin: { means: "levels", ours: [], says: "is the default here: leave transform out" },
  chg: { means: "change from the previous period, in the series' unit", ours: [], says: NO_ABSOLUTE_CHANGE },
  ch1: { means: "change from a year ago, in the series' unit", ours: [], says: NO_ABSOLUTE_CHANGE },
  pch: {
    means: "percent change from the previous period",
    ours: ["mom", "qoq", "yoy"],
    says:
      "is transform=mom on a monthly series, transform=qoq on a quarterly one and transform=yoy on an annual one " +
      "(period over period; a daily or weekly series needs frequency=monthly with transform=mom)",
  },
  pc1: { means: "percent change from a year ago", ours: ["yoy"] },
  pca: { means: "compounded annual rate of change", ours: [], says: NO_COMPOUNDED_RATE },
  cch: { means: "continuously compounded rate of change", ours: [], says: NO_COMPOUNDED_RATE },
  cca: { means: "continuously compounded annual rate of change", ours: [], says: NO_COMPOUNDED_RATE },
  log: { means: "natural log", ours: ["log"] },
};

// FRED `aggregation_method`; `eop` (end of period) is the bucket's latest value, our `last`.
const AGGREGATION: Record<string, ValueRule> = {
  avg: { means: "average", ours: ["mean"] },
  eop: { means: "end of period", ours: ["last"] },
  sum: { means: "sum", ours: ["sum"] },
};

// FRED `frequency` short codes. Bi-weekly and semiannual have no calendar bucket here.
const FREQUENCY: Record<string, ValueRule> = {
  d: { means: "daily", ours: ["daily"] },
  w: { means: "weekly", ours: ["weekly"] },
  m: { means: "monthly", ours: ["monthly"] },
  q: { means: "quarterly", ours: ["quarterly"] },
  a: { means: "annual", ours: ["annual"] },
};

/** A FRED parameter name: our parameter for it (null when it has none), and its values' table when they differ. */
type ParameterRule = {
  ours: string | null;
  values?: Record<string, ValueRule>;
  about?: string;
  note?: string;
  headers?: string[];
};

const PARAMETERS: Record<string, ParameterRule> = {
  series_id: { ours: "indicator" },
  observation_start: { ours: "start_date", about: "YYYY-MM-DD" },
  observation_end: { ours: "end_date", about: "YYYY-MM-DD" },
  units: { ours: "transform", values: UNITS, about: TRANSFORM_SYNTAX },
  aggregation_method: { ours: "resample_method", values: AGGREGATION, about: RESAMPLE_METHODS.join(", ") },
  sort_order: { ours: "order", about: "asc or desc" },
  api_key: {
    ours: null,
    headers: ["Authorization: Bearer <key>", "X-API-Key: <key>"],
    note: "send the key in the 'Authorization: Bearer <key>' or 'X-API-Key: <key>' header, never in the URL (URLs end up in logs and histories)",
  },
  file_type: { ours: null, note: "responses are always JSON; drop file_type" },
};

/** Our parameters that callers give FRED's values: FRED's name for the parameter and the table of its values. */
const VALUES_OF_OURS: Record<string, { fred: string; values: Record<string, ValueRule> }> = {
  transform: { fred: "units", values: UNITS },
  frequency: { fred: "frequency", values: FREQUENCY },
  resample_method: { fred: "aggregation_method", values: AGGREGATION },
};

/** `given` is what the caller wrote; the sentence names FRED's own parameter, so `transform=pch` reads as units=pch. */
function fromValue(
  given: string,
  fredName: string,
  value: string,
  rule: ValueRule,
  parameter: string,
): FredTranslation {
  const says = rule.says ?? `is ${parameter}=${rule.ours[0]} here`;
  return {
    fred: given,
    ours: rule.ours.map((v) => `${parameter}=${v}`),
    message: `FRED's ${fredName}=${value} (${rule.means}) ${says}.`,
  };
}

/** Whether `value` is a key of `table` itself (not something inherited such as `constructor`). */
function own<T>(table: Record<string, T>, value: string): T | undefined {
  return Object.hasOwn(table, value) ? table[value] : undefined;
}

/**
 * Translations for query parameter names the operation does not take and FRED does. `given` holds each name's
 * values; `accepted` is the operation's own parameters (a FRED name whose equivalent is not among them is left
 * untranslated). Unknown values are not repeated: the translation then names our parameter only.
 */
export function translateFredParameters(
  given: ReadonlyMap<string, readonly string[]>,
  accepted: readonly string[],
): FredTranslation[] {
  const out: FredTranslation[] = [];
  for (const [name, values] of given) {
    const rule = own(PARAMETERS, name);
    if (!rule) continue;
    if (rule.ours === null) {
      out.push({ fred: name, ours: rule.headers ?? [], message: `FRED's ${name}: ${rule.note}.` });
      continue;
    }
    const parameter = rule.ours;
    if (!accepted.includes(parameter)) continue;
    const known = [...new Set(values)].flatMap((v) => {
      const r = rule.values ? own(rule.values, v) : undefined;
      return r ? [fromValue(`${name}=${v}`, name, v, r, parameter)] : [];
    });
    if (known.length > 0) out.push(...known);
    else
      out.push({
        fred: name,
        ours: [parameter],
        message: `FRED's ${name} is ${parameter} here${rule.about ? ` (${rule.about})` : ""}.`,
      });
  }
  return out;
}

/**
 * The translation of a FRED value given to one of our own parameters, or null when the value is not FRED's or our
 * equivalent is not a value this parameter takes (`acceptedValues`, when the schema lists them).
 */
export function translateFredValue(
  parameter: string,
  value: string,
  acceptedValues?: readonly unknown[],
): FredTranslation | null {
  const table = own(VALUES_OF_OURS, parameter);
  const rule = table ? own(table.values, value) : undefined;
  if (!table || !rule) return null;
  if (acceptedValues && !rule.ours.some((v) => acceptedValues.includes(v))) return null;
  return fromValue(`${parameter}=${value}`, table.fred, value, rule, parameter);
}
