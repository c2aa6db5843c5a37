// PGlite's runtime files, imported `with { type: "file" }` so the compiled binary embeds them (a path at runtime).
declare module "@electric-sql/pglite/pglite.wasm" {
  const path: string;
  export default path;
}
declare module "@electric-sql/pglite/initdb.wasm" {
  const path: string;
  export default path;
}
declare module "@electric-sql/pglite/pglite.data" {
  const path: string;
  export default path;
}
