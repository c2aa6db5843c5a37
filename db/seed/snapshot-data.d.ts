// Gzip snapshots of real data under db/seed/snapshot/, imported `with { type: "file" }` so `bun build --compile`
// embeds them: the import is the file's path (a $bunfs path in the binary), read with Bun.file.
declare module "*.gz" {
  const path: string;
  export default path;
}
