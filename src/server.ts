// Entry point for `bun start`: the same as `svc serve`.
import { runCli } from "./cli";

await runCli(["serve", ...process.argv.slice(2)]);
