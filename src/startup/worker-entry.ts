// Where a worker thread's entry point is. Under `bun run`: the file beside this one. In the compiled binary, modules
// live under /$bunfs/root/ (by their path below src/, as .js): `bun run build` names the workers as entry points of
// their own, and the bundled code of this file sits in the binary's main module, so a URL relative to it would miss.
/** Whether this is the compiled binary (its modules live under /$bunfs/). */
export const COMPILED = import.meta.path.startsWith("/$bunfs/") || import.meta.path.startsWith("B:\\~BUN\\");

export function workerEntry(name: "database-thread" | "starting-server" | "compute-thread" | "job-thread"): string {
  return COMPILED ? `/$bunfs/root/startup/${name}.js` : new URL(`./${name}.ts`, import.meta.url).href;
}
