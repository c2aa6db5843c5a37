// Runs an unmodified FRED client library against the app. Such clients keep FRED's base URL
// (https://api.stlouisfed.org/fred/) and honour HTTPS_PROXY, as Node HTTP clients do: the client opens a CONNECT
// tunnel through a local proxy, which joins it to a local HTTPS server holding a self-signed certificate for that host
// (test/fixtures/fred-tls), which hands each request, path and query unchanged, to the app. Certificate checks are
// off while the tunnel is open (the certificate is self-signed); both environment variables are restored on stop.
import { connect, createServer } from "node:net";
import { join } from "node:path";

type Fetch = (req: Request) => Response | Promise<Response>;

export async function openFredTunnel(appFetch: Fetch): Promise<{ requests: string[]; stop(): void }> {
  const requests: string[] = [];
  const dir = join(import.meta.dir, "../fixtures/fred-tls");
  const https = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls: { cert: Bun.file(join(dir, "cert.pem")), key: Bun.file(join(dir, "key.pem")) },
    fetch(req) {
      const url = new URL(req.url);
      requests.push(`${url.pathname}${url.search}`);
      return appFetch(
        new Request(`http://localhost${url.pathname}${url.search}`, { method: req.method, headers: req.headers }),
      );
    },
  });
  const proxy = createServer((socket) => {
    socket.once("data", () => {
      const upstream = connect(https.port!, "127.0.0.1", () => {
        socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        socket.pipe(upstream);
        upstream.pipe(socket);
      });
      upstream.on("error", () => socket.destroy());
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve()));
  const saved = { proxy: process.env.HTTPS_PROXY, tls: process.env.NODE_TLS_REJECT_UNAUTHORIZED };
  process.env.HTTPS_PROXY = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  return {
    requests,
    stop() {
      if (saved.proxy === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved.proxy;
      if (saved.tls === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = saved.tls;
      https.stop(true);
      proxy.close();
    },
  };
}
