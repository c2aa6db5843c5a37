// Entry point for `bun start`: the same as `svc serve`.
// The starting listener first, then the CLI's modules (loaded dynamically: static imports would load them first).
import { listenEarly } from "./startup/early";

const argv = ["serve", ...process.argv.slice(2)];
const early = listenEarly(argv, process.env);
const { runCli } = await import("./cli");
await runCli(argv, { early });
