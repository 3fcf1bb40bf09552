/** Ports for the servers the tests start on loopback. */
import { createServer } from "node:net";

/** A port free on the loopback address now (the kernel picks it; closed again at once). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}
