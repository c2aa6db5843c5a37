// Entry point of the compiled binary (`bun run build` -> dist/svc). It is the CLI, except that no
// arguments means `serve`: copying the binary somewhere and running it starts the service.
// `serve` listens before the CLI's modules are loaded (src/startup/early.ts): they are imported dynamically.
import { listenEarly } from "./startup/early";

const given = process.argv.slice(2);
const argv = given.length > 0 ? given : ["serve"];
const early = listenEarly(argv, process.env);
const { runCli } = await import("./cli");
await runCli(argv, { early });
