// The published contract's operations, read by the documents (src/docs) and the MCP tools (src/mcp) alike: neither
// imports the other. The OpenAPI document itself is built in src/docs/openapi.ts.
// The generated document is plain JSON; walkers read it through this loose view.
export type JsonObject = Record<string, any>;

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type OperationEntry = { method: HttpMethod; path: string; operation: JsonObject };

/** Every operation of the document, in path order as registered. */
export function listOperations(doc: object): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries((doc as JsonObject).paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = (item as JsonObject)[method];
      if (operation) out.push({ method, path, operation });
    }
  }
  return out;
}
