// Files imported as text or as embedded file paths (`with { type: "text" | "file" }`), so the compiled
// binary carries them and needs no files beside it.
declare module "*.md" {
  const text: string;
  export default text;
}
declare module "*/standalone.js" {
  const path: string;
  export default path;
}
