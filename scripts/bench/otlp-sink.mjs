// Where the traced target sends its spans during a benchmark: an OTLP/HTTP endpoint on
// loopback that reads each export and answers it as a collector does (200, an empty
// ExportTraceServiceResponse), so what is measured is the server's own cost of tracing, not a
// collector's. It runs in the harness process, on the harness core.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { undoLater } from './cleanup.mjs';

/**
 * Starts the sink; resolves with its base URL (for OTEL_EXPORTER_OTLP_ENDPOINT), how many
 * exports and bytes it received, and `stop`.
 */
export async function startOtlpSink() {
  const received = { exports: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (chunk) => (received.bytes += chunk.length));
    req.on('end', () => {
      received.exports += 1;
      res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': 0 });
      res.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  const stop = undoLater(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  );
  return { url: `http://127.0.0.1:${port}`, received, stop };
}
