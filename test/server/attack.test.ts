/**
 * Requests found to break serve's contract from outside (2026-12-06 review), each against a real
 * server on a random loopback port: the built executable where the process itself matters (the
 * environment its commands inherit), raw sockets where fetch would normalise the request.
 */
import net from "node:net"
import { mkdir, symlink } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { serveProcess } from "../lib/serve-process.js"
import { tmpdir } from "../lib/tmp.js"

const TOKEN = "attack-test-token-0123456789abcdef"

/** Sends `text` as it is on a new connection and gives back everything the server answered. */
export const rawRequest = (port: number, text: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1")
    let answer = ""
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("utf8")
    })
    socket.on("end", () => resolve(answer))
    socket.on("error", reject)
    socket.write(text.replaceAll("\n", "\r\n"))
  })

describe("the server's token", () => {
  it.live(
    "is not in the environment of a command the server runs (the model would read it and answer its own asks)",
    () =>
      Effect.gen(function* () {
        const base = yield* tmpdir
        const served = yield* serveProcess({ base, root: path.join(base, "work"), token: TOKEN })
        const created = yield* Effect.promise(() => served.api("/api/session", { body: {} }))
        const sessionID = created.body.data.id as string
        const answer = yield* Effect.promise(() =>
          served.api(`/api/session/${sessionID}/call`, { body: { call: { name: "bash", input: { command: 'echo "[$TOOLGATE_SERVER_TOKEN]"', description: "print the token" } } } }),
        )
        expect(answer.body.kind).toBe("success")
        expect(JSON.stringify(answer.body)).not.toContain(TOKEN)
        expect(answer.body.structured.output).toMatch(/^\[\]\n/)
      }),
    30_000,
  )
})
