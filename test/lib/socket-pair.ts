/** A connected pair of Unix sockets on a socket file in a temporary folder, both closed with the test's scope. */
import { createConnection, createServer, type Socket } from "node:net"
import path from "node:path"
import { Effect } from "effect"
import { tmpdir } from "./tmp.js"

/** `server` is the listening side's end of the connection, `client` the connecting side's. */
export const socketPair = Effect.gen(function* () {
  const root = yield* tmpdir
  return yield* Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ server: Socket; client: Socket; close: () => void }>((resolve) => {
          const file = path.join(root, "s.sock")
          const connected: { client?: Socket } = {}
          const listener = createServer((server) => resolve({ server, client: connected.client as Socket, close: () => (server.destroy(), connected.client?.destroy(), listener.close()) }))
          listener.listen(file, () => (connected.client = createConnection(file)))
        }),
    ),
    ({ close }) => Effect.sync(close),
  )
})
