// llms.txt and llms-full.txt (https://llmstxt.org), rendered from the generated OpenAPI document plus the
// price and plan tables, so the agent-facing files list exactly the routes that exist and cannot drift.
// Pure functions: the document and base URL come in, text goes out.
import { CATEGORIES } from "../../db/schema/catalog";
import { ERROR_STATUS, type ErrorCode } from "../errors";
import { publicPlans } from "../plans";
import type { SourceFreshness } from "../services/catalog";
import { CONTRACT_VERSION, SERVICE_NAME } from "../version";
import { publishedPrices, type OpenApiDocument } from "./openapi";
import { listOperations, type JsonObject, type OperationEntry } from "../contract/operations";
import {
  AUTH_PARAGRAPH,
  DATA_PARAGRAPH,
  FRED_PARAGRAPH,
  ERROR_PARAGRAPH,
  PRICE_LABELS,
  REGION_CONVENTIONS,
  SERVICE_SUMMARY,
  VALUES_PARAGRAPH,
  planTableMarkdown,
  priceTableMarkdown,
} from "./service-text";
import { MCP_PATH } from "../contract/mcp";

export type LlmsContext = { baseUrl: string };

// ---- schema description -------------------------------------------------------------------------

function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

function resolve(doc: JsonObject, schema: JsonObject | undefined): JsonObject | undefined {
  if (schema?.$ref && typeof schema.$ref === "string") return doc.components?.schemas?.[refName(schema.$ref)];
  return schema;
}

const code = (v: unknown) => `\`${typeof v === "string" ? v : JSON.stringify(v)}\``;

/** A short type label: `string (uuid)`, `integer`, `array of Region`, `one of a, b`, `X or null`. */
export function typeLabel(schema: JsonObject | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return "any";
  if (typeof schema.$ref === "string") return refName(schema.$ref);
  const alts = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alts)) {
    // "X or null" reads best with null last, whatever order the generator chose.
    const labels = [...new Set(alts.map((s: JsonObject) => typeLabel(s)))];
    return [...labels.filter((l) => l !== "null"), ...labels.filter((l) => l === "null")].join(" or ");
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((s: JsonObject) => typeLabel(s)).join(" and ");
  if (schema.const !== undefined) return code(schema.const);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 1 && types[0] === "null") return "null";
  const nullable = types.includes("null");
  let label: string;
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter((v: unknown) => v !== null);
    label = `one of ${values.map(code).join(", ")}`;
  } else {
    const main = types.filter((t) => t !== "null");
    label =
      main.map((t) => (t === "array" ? `array of ${typeLabel(schema.items)}` : t)).join(" or ") ||
      (schema.properties ? "object" : "any");
    if (schema.format) label += ` (${schema.format})`;
  }
  return nullable || schema.nullable === true ? `${label} or null` : label;
}

/** Bounds, pattern and default, in words: `0 to 100`, `1 to 500 characters`, `default 50`. */
export function constraints(schema: JsonObject | undefined): string[] {
  if (!schema) return [];
  const alts = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alts)) {
    const inner = alts.flatMap((s: JsonObject) => constraints(s));
    return schema.default !== undefined ? [...inner, `default ${code(schema.default)}`] : inner;
  }
  const out: string[] = [];
  const lo =
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? `more than ${schema.exclusiveMinimum}` : undefined);
  const hi =
    schema.maximum ?? (schema.exclusiveMaximum !== undefined ? `less than ${schema.exclusiveMaximum}` : undefined);
  if (typeof lo === "number" && typeof hi === "number") out.push(`${lo} to ${hi}`);
  else if (lo !== undefined && hi !== undefined)
    out.push(`${typeof lo === "number" ? `at least ${lo}` : lo}, ${typeof hi === "number" ? `at most ${hi}` : hi}`);
  else if (lo !== undefined) out.push(typeof lo === "number" ? `at least ${lo}` : lo);
  else if (hi !== undefined) out.push(typeof hi === "number" ? `at most ${hi}` : hi);
  if (schema.minLength !== undefined && schema.maxLength !== undefined)
    out.push(`${schema.minLength} to ${schema.maxLength} characters`);
  else if (schema.minLength !== undefined) out.push(`at least ${schema.minLength} characters`);
  else if (schema.maxLength !== undefined) out.push(`at most ${schema.maxLength} characters`);
  if (schema.minItems !== undefined && schema.maxItems !== undefined)
    out.push(`${schema.minItems} to ${schema.maxItems} items`);
  else if (schema.minItems !== undefined) out.push(`at least ${schema.minItems} items`);
  else if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} items`);
  if (schema.pattern) out.push(`pattern ${code(schema.pattern)}`);
  if (schema.default !== undefined) out.push(`default ${code(schema.default)}`);
  return out;
}

function oneLine(text: string | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").trim();
}

/** Field lines of an object schema; inline nested objects are expanded, named components are referenced. */
export function fieldLines(schema: JsonObject | undefined, indent = "", depth = 0): string[] {
  if (!schema || depth > 4) return [];
  const alts = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alts)) return alts.flatMap((s: JsonObject) => (s.$ref ? [] : fieldLines(s, indent, depth)));
  if (!schema.properties) return [];
  const required = new Set<string>(schema.required ?? []);
  const lines: string[] = [];
  for (const [name, prop] of Object.entries(schema.properties as Record<string, JsonObject>)) {
    const facts = [typeLabel(prop), required.has(name) ? "required" : "optional", ...constraints(prop)];
    const description = oneLine(prop.description);
    lines.push(`${indent}- \`${name}\` (${facts.join("; ")})${description ? `: ${description}` : ""}`);
    const inner = prop.$ref
      ? undefined
      : prop.type === "array" || (Array.isArray(prop.type) && prop.type.includes("array"))
        ? prop.items
        : prop;
    if (inner && !inner.$ref) lines.push(...fieldLines(inner, `${indent}  `, depth + 1));
  }
  return lines;
}

// ---- operations ---------------------------------------------------------------------------------

export function errorCodesForStatus(status: number): ErrorCode[] {
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((c) => ERROR_STATUS[c] === status);
}

/** How an operation is paid for, in words. */
export function accessLabel(operation: JsonObject): string {
  if (operation["x-price-usd"]) {
    const variants = Object.entries((operation["x-price-usd-by-surface"] ?? {}) as Record<string, string>)
      .filter(([, usd]) => usd !== operation["x-price-usd"])
      .map(([s, usd]) => `${usd} for ${s.replace(/_/g, " ")}`);
    return `paid: ${operation["x-price-usd"]} USD per request${variants.length ? ` (${variants.join(", ")})` : ""}, or an API key`;
  }
  const security = operation.security as JsonObject[] | undefined;
  if (security?.length && !security.some((s) => Object.keys(s).length === 0)) return "API key required";
  return "free, no credential";
}

function absoluteUrl(baseUrl: string, path: string): string {
  return `${baseUrl}${path}`;
}

function endpointLine(e: OperationEntry, baseUrl: string): string {
  const summary = oneLine(e.operation.summary) || e.operation.operationId || "";
  return `- [${e.method.toUpperCase()} ${e.path}](${absoluteUrl(baseUrl, e.path)}): ${summary}. ${capitalise(accessLabel(e.operation))}.`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function responseSection(doc: JsonObject, operation: JsonObject): string[] {
  const lines: string[] = [];
  const errors: string[] = [];
  for (const [status, raw] of Object.entries((operation.responses ?? {}) as Record<string, JsonObject>)) {
    const response = raw.$ref ? (doc.components?.responses?.[refName(raw.$ref)] ?? raw) : raw;
    const n = Number(status);
    if (n >= 400) {
      const codes = errorCodesForStatus(n);
      errors.push(`${status}${codes.length ? ` ${codes.join(" or ")}` : ""} (${oneLine(response.description)})`);
      continue;
    }
    const content = (response.content ?? {}) as Record<string, JsonObject>;
    const media = Object.keys(content);
    const headers = Object.keys(response.headers ?? {});
    lines.push(
      `- ${status}${media.length ? ` ${media.join(", ")}` : ""}: ${oneLine(response.description)}` +
        (media[0] && content[media[0]].schema ? `; body ${typeLabel(content[media[0]].schema)}` : "") +
        (headers.length ? `; headers ${headers.map((h) => `\`${h}\``).join(", ")}` : ""),
    );
    if (media[0]) lines.push(...fieldLines(resolve(doc, content[media[0]].schema), "  "));
  }
  if (errors.length) lines.push(`- Errors (body \`Error\`): ${errors.join("; ")}`);
  return lines;
}

function operationSection(doc: JsonObject, e: OperationEntry, baseUrl: string): string {
  const op = e.operation;
  const out = [`### ${e.method.toUpperCase()} ${e.path}`, ""];
  out.push(
    `${oneLine(op.summary)}${op.operationId ? ` (operationId \`${op.operationId}\`)` : ""}. URL: ${absoluteUrl(baseUrl, e.path)}. Access: ${accessLabel(op)}.`,
  );
  if (op.description) out.push("", op.description.trim());
  const params = (op.parameters ?? []) as JsonObject[];
  if (params.length) {
    out.push("", "Parameters:");
    for (const raw of params) {
      const p = raw.$ref ? (doc.components?.parameters?.[refName(raw.$ref)] ?? raw) : raw;
      const facts = [p.in, typeLabel(p.schema), p.required ? "required" : "optional", ...constraints(p.schema)];
      const description = oneLine(p.description ?? p.schema?.description);
      out.push(`- \`${p.name}\` (${facts.join("; ")})${description ? `: ${description}` : ""}`);
    }
  }
  const body = op.requestBody as JsonObject | undefined;
  if (body) {
    const content = (body.content ?? {}) as Record<string, JsonObject>;
    const media = Object.keys(content)[0];
    out.push(
      "",
      `Request body (${media ?? "none"}${body.required ? ", required" : ", optional"}): ${media ? typeLabel(content[media].schema) : ""}`,
    );
    if (media) out.push(...fieldLines(resolve(doc, content[media].schema)));
  }
  out.push("", "Responses:", ...responseSection(doc, op));
  return out.join("\n");
}

// ---- facts pulled from the document -------------------------------------------------------------

function enumValues(schema: JsonObject | undefined): string[] | null {
  if (!schema) return null;
  if (Array.isArray(schema.enum)) return schema.enum.filter((v: unknown) => typeof v === "string");
  for (const alt of schema.anyOf ?? schema.oneOf ?? []) {
    const found = enumValues(alt);
    if (found) return found;
  }
  return null;
}

/** Enum values of a property of a named component, or of a named parameter of the operations on a path. */
export function documentEnum(
  doc: JsonObject,
  opts: { component?: string; property?: string; path?: string; parameter?: string },
): string[] | null {
  if (opts.component && opts.property) {
    const found = enumValues(resolve(doc, doc.components?.schemas?.[opts.component])?.properties?.[opts.property]);
    if (found) return found;
  }
  if (opts.parameter && opts.path) {
    for (const { operation } of listOperations(doc).filter((e) => e.path === opts.path)) {
      for (const p of (operation.parameters ?? []) as JsonObject[]) {
        if (p.name === opts.parameter) {
          const found = enumValues(p.schema);
          if (found) return found;
        }
      }
    }
  }
  return null;
}

// ---- where the data come from, and how fresh ----------------------------------------------------

/** One line per source: what it holds and how recent, read from the catalog (llms files, the OpenAPI description). */
export function dataHoldingLines(rows: readonly SourceFreshness[]): string[] {
  return rows.map((r) => {
    const held =
      r.indicatorsHeld === 0
        ? "no data held yet"
        : `${r.indicatorsHeld} of ${r.indicators} indicators hold data, the latest observation ${r.latestDate}, last changed ${r.lastUpdated?.slice(0, 10)}`;
    return `- \`${r.slug}\` ${r.name}: ${held}. ${r.attribution ?? ""}${r.license ? ` Licence: ${r.license}.` : ""}`;
  });
}

/** The "## Data" section both llms files end with, read from the catalog at request time. */
export function renderDataSection(rows: readonly SourceFreshness[]): string {
  return ["## Data", "", DATA_PARAGRAPH, "", VALUES_PARAGRAPH, "", ...dataHoldingLines(rows), ""].join("\n");
}

// ---- the two files ------------------------------------------------------------------------------

function header(ctx: LlmsContext): string[] {
  return [
    `# ${SERVICE_NAME}`,
    "",
    `> ${SERVICE_SUMMARY}`,
    "",
    `Base URL: ${ctx.baseUrl}. Contract version ${CONTRACT_VERSION}. All data endpoints live under \`/v1\`. ${ERROR_PARAGRAPH}`,
  ];
}

function links(ctx: LlmsContext): string[] {
  return [
    `- [OpenAPI 3.1 contract](${ctx.baseUrl}/openapi.json): machine-readable, every operation and schema`,
    `- [Interactive API reference](${ctx.baseUrl}/docs)`,
    `- [Full agent reference](${ctx.baseUrl}/llms-full.txt): every parameter, bound, default, response field and error code`,
    `- [MCP endpoint](${ctx.baseUrl}${MCP_PATH}): Streamable HTTP MCP (JSON-RPC 2.0), the same data and prices as the REST API; paid tools take the API key sent with the request, or an x402 payment in the call (\`_meta["x402/payment"]\`)`,
    `- [Changelog](${ctx.baseUrl}/changelog.md)`,
  ];
}

/** The compact discovery file: what the service is, auth, prices, one line per endpoint. */
export function renderLlmsTxt(doc: OpenApiDocument | JsonObject, ctx: LlmsContext): string {
  const prices = Object.entries(publishedPrices(doc)).map(
    ([k, usd]) => `- ${PRICE_LABELS[k as keyof typeof PRICE_LABELS]}: ${usd} USD`,
  );
  const plans = publicPlans(ctx.baseUrl).map(
    (p) =>
      `- ${p.name}: ${p.price_usd_per_month} USD per month, ${p.included_requests_per_month === null ? "no monthly quota" : `${p.included_requests_per_month.toLocaleString("en-US")} requests/month included`}, ${p.rate_limit_per_minute.toLocaleString("en-US")} requests/min${p.overage_usd_per_1000_requests === null ? "" : `, overage ${p.overage_usd_per_1000_requests} USD per 1,000`}${p.checkout ? ` (subscribe: ${p.checkout})` : ""}`,
  );
  return [
    ...header(ctx),
    "",
    "## Authentication",
    "",
    AUTH_PARAGRAPH,
    "",
    "## FRED clients",
    "",
    FRED_PARAGRAPH,
    "",
    "## Prices per request",
    "",
    ...prices,
    "",
    "## Plans",
    "",
    ...plans,
    "",
    "## Endpoints",
    "",
    ...listOperations(doc).map((e) => endpointLine(e, ctx.baseUrl)),
    "",
    "## Docs",
    "",
    ...links(ctx),
    "",
  ].join("\n");
}

/** The full discovery file: every operation with parameters, bounds, defaults, enums, fields and errors. */
export function renderLlmsFullTxt(doc: OpenApiDocument | JsonObject, ctx: LlmsContext): string {
  const d = doc as JsonObject;
  const regionTypes = documentEnum(d, {
    component: "Region",
    property: "type",
    path: "/v1/regions",
    parameter: "type",
  });
  const errorRows = (Object.entries(ERROR_STATUS) as [ErrorCode, number][]).map(([c, s]) => `| \`${c}\` | ${s} |`);
  const schemas = Object.entries((d.components?.schemas ?? {}) as Record<string, JsonObject>).map(([name, schema]) =>
    [
      `### ${name}`,
      "",
      `${typeLabel(schema)}${schema.description ? `: ${oneLine(schema.description)}` : ""}`,
      ...fieldLines(schema),
    ].join("\n"),
  );
  return [
    ...header(ctx),
    "",
    "## Docs",
    "",
    ...links(ctx),
    "",
    "## Authentication",
    "",
    AUTH_PARAGRAPH,
    "",
    "## FRED clients",
    "",
    FRED_PARAGRAPH,
    "",
    "## Prices per request (USD)",
    "",
    priceTableMarkdown(publishedPrices(d)),
    "",
    "## Plans",
    "",
    planTableMarkdown(ctx.baseUrl),
    "",
    "## Region codes",
    "",
    REGION_CONVENTIONS + (regionTypes ? ` Region types: ${regionTypes.map(code).join(", ")}.` : ""),
    "",
    "## Catalog categories",
    "",
    `Every indicator has one top-level \`category\`: ${CATEGORIES.map(code).join(", ")}; and a kebab-case \`subcategory\`. ` +
      "Filter the indicator list with `category`. Categories are taxonomy only; access is governed by `access_tier` " +
      "(`free` or `premium`; every `svc:` derived series is premium).",
    "",
    "## Errors",
    "",
    ERROR_PARAGRAPH,
    "",
    "| Code | HTTP status |",
    "|---|---|",
    ...errorRows,
    "",
    "## Operations",
    "",
    listOperations(doc)
      .map((e) => operationSection(d, e, ctx.baseUrl))
      .join("\n\n"),
    "",
    "## Schemas",
    "",
    schemas.join("\n\n"),
    "",
  ].join("\n");
}
