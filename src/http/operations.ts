// What a route takes and returns, read from the app's own OpenAPI document (built once, on first use): the x402
// bazaar extension of every paid route describes its query parameters and response from the same zod schemas
// that validate and document it, so nothing route-specific is written twice. The shapes are complete (parameter
// descriptions, the whole response schema): the 402 body carries them as they are, and the PAYMENT-REQUIRED
// header only a compact form of the parameters (payments/x402/bazaar.ts), so no size budget applies here.
type Json = Record<string, any>;

export type OperationShape = {
  queryParamsSchema: { properties: Record<string, unknown>; required?: string[] };
  outputSchema?: Record<string, unknown>;
};

// Depth counts every object and array level (`properties`, a field, `items`...): a briefing run's citation sits about
// 16 deep. The bound only stops a component that refers to itself.
const MAX_SCHEMA_DEPTH = 48;

/**
 * A schema of the document with its `#/components/schemas/...` references replaced by the components they name, and
 * without `example`/`examples` (documentation, typed as text for query integers): a self-contained schema for the
 * x402 bazaar extension and MCP tool schemas.
 */
export function inlineRefs(node: unknown, components: Json, depth = 0): unknown {
  if (depth > MAX_SCHEMA_DEPTH || node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map((n) => inlineRefs(n, components, depth + 1));
  const obj = node as Json;
  if (typeof obj.$ref === "string")
    return inlineRefs(components[obj.$ref.replace(/^#\/components\/schemas\//, "")] ?? {}, components, depth + 1);
  const out: Json = {};
  for (const [k, v] of Object.entries(obj))
    if (k !== "example" && k !== "examples") out[k] = inlineRefs(v, components, depth + 1);
  return out;
}

export type OperationCatalog = { describe(method: string, honoPath: string): OperationShape | null };

function stripDescriptions(node: unknown): unknown {
  if (node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map(stripDescriptions);
  return Object.fromEntries(
    Object.entries(node as Json)
      .filter(([k]) => k !== "description")
      .map(([k, v]) => [k, stripDescriptions(v)]),
  );
}

export function operationCatalog(document: () => Json): OperationCatalog {
  let index: Map<string, OperationShape> | null = null;
  const build = () => {
    const doc = document();
    const components = doc.components?.schemas ?? {};
    const map = new Map<string, OperationShape>();
    for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
      for (const [method, op] of Object.entries<Json>(item)) {
        if (typeof op !== "object" || !op || !Array.isArray(op.parameters ?? [])) continue;
        const properties: Record<string, unknown> = {};
        const required: string[] = [];
        for (const p of (op.parameters ?? []) as Json[]) {
          if (p.in !== "query") continue;
          properties[p.name] = inlineRefs(
            { ...(p.schema ?? {}), ...(p.description ? { description: p.description } : {}) },
            components,
          );
          if (p.required) required.push(p.name);
        }
        const ok = op.responses?.["200"]?.content?.["application/json"]?.schema;
        const outputSchema = ok
          ? (stripDescriptions(inlineRefs(ok, components)) as Record<string, unknown>)
          : undefined;
        const honoPath = path.replace(/\{([^}]+)\}/g, ":$1");
        map.set(`${method.toUpperCase()} ${honoPath}`, {
          queryParamsSchema: { properties, ...(required.length ? { required } : {}) },
          ...(outputSchema ? { outputSchema } : {}),
        });
      }
    }
    return map;
  };
  return {
    describe(method, honoPath) {
      index ??= build();
      return index.get(`${method.toUpperCase()} ${honoPath}`) ?? null;
    },
  };
}
