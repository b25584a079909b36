// How a baseline process starts: its settings from the environment run.mjs passes, and the
// line run.mjs waits for (our server logs the same `"msg":"listening"` once ready).

/** PORT and PETS (how many pets to hold). */
export function settings() {
  return { port: Number(process.env.PORT), pets: Number(process.env.PETS) };
}

/** Listens on loopback, then prints `{"msg":"listening"}` on stdout. */
export function listenAndAnnounce(server, port) {
  server.listen(port, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ msg: 'listening', port })}\n`);
  });
}
