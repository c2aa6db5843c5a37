// Entry point of the compiled binary (`bun run build` -> dist/svc). It is the CLI, except that no
// arguments means `serve`: copying the binary somewhere and running it starts the service.
import { runCli } from "./cli";

const argv = process.argv.slice(2);
await runCli(argv.length > 0 ? argv : ["serve"]);
