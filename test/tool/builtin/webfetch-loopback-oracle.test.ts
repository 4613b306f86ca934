/**
 * The loopback is one thing under many spellings. The oracle is the kernel: a real server bound to
 * all interfaces (`::`, dual stack, as Node binds by default) is reached with real connections
 * through every loopback spelling, and every spelling that arrives must be blocked by a deny rule
 * written for either loopback host (`http://127.0.0.1:*` or `http://[::1]:*`), with nothing
 * arriving at the server through the gate. Before this, `[::1]` and `[::]` went past a deny on
 * `127.0.0.1` (and `127.x`, `0.0.0.0` past one on `[::1]`) to the same server; and (2026-12-06)
 * the machine's own LAN address (`http://192.0.2.2:<port>/`) went past both.
 */
import { createServer } from "node:http"
import { request } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WebOwnHosts } from "../../../src/tool/builtin/web/own-hosts.js"
import { globalConfig } from "../../lib/config.js"
import { settle } from "../../lib/file-tools.js"
import { failureTag, withTool } from "./web/webfetch-harness.js"

const SPELLINGS = ["127.0.0.1", "127.0.0.2", "0.0.0.0", "[::1]", "[::]", "[::ffff:127.0.0.1]", "[0:0:0:0:0:0:0:1]", "2130706433", "localhost"]
const DENIED = ["http://127.0.0.1:*", "http://[::1]:*"]

/** A server on every interface, both families, counting what arrives. */
const dualStack = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{ readonly server: ReturnType<typeof createServer>; readonly port: number; readonly arrived: Array<string> }>((resolve, reject) => {
        const arrived: Array<string> = []
        const server = createServer((incoming, response) => {
          arrived.push(incoming.headers.host ?? "")
          response.writeHead(200, { "content-type": "text/plain" })
          response.end("reached")
        })
        server.once("error", reject)
        server.listen({ port: 0, host: "::", ipv6Only: false }, () => resolve({ server, port: (server.address() as AddressInfo).port, arrived }))
      }),
  ),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve()))),
)

/** Whether a real connection to `host` arrives at the server (the URL parser's reading of the host, as webfetch's). */
const arrives = (host: string, port: number) =>
  Effect.promise(
    () =>
      new Promise<boolean>((resolve) => {
        const hostname = new URL(`http://${host}:${port}/`).hostname.replace(/^\[|\]$/g, "")
        const sent = request({ hostname, port, path: "/", timeout: 2_000 }, (response) => {
          response.resume()
          response.on("end", () => resolve(response.statusCode === 200))
        })
        sent.on("error", () => resolve(false))
        sent.on("timeout", () => sent.destroy())
        sent.end()
      }),
  )

describe("webfetch and the loopback, against real connections", () => {
  it.live("a deny on either loopback host blocks every spelling that reaches a server bound to all interfaces", () =>
    Effect.gen(function* () {
      const { port, arrived } = yield* dualStack
      const reaching: Array<string> = []
      for (const spelling of SPELLINGS) if (yield* arrives(spelling, port)) reaching.push(spelling)
      if (!reaching.includes("[::1]")) console.log(`webfetch loopback oracle: this machine has no IPv6 loopback; checked ${reaching.join(", ")} only`)
      // The oracle must see something, or it proves nothing.
      expect(reaching).toContain("127.0.0.1")
      const before = arrived.length
      for (const denied of DENIED) {
        yield* withTool(
          (tool) =>
            Effect.gen(function* () {
              for (const spelling of reaching) {
                const url = `http://${spelling}:${port}/`
                const { result } = yield* settle(tool, { url, timeout: 2 })
                expect([denied, url, failureTag(result)]).toEqual([denied, url, "Permission.BlockedError"])
              }
            }),
          globalConfig({ permission: [{ action: "webfetch", resource: "*", effect: "allow" }, { action: "webfetch", resource: denied, effect: "deny" }] }),
        )
      }
      expect(arrived.length).toBe(before)
    }))

  it.live("so does every address of this machine's own interfaces that reaches it", () =>
    Effect.gen(function* () {
      const { port, arrived } = yield* dualStack
      const own = WebOwnHosts.current().filter((host) => host !== "127.0.0.1" && host !== "[::1]")
      const reaching: Array<string> = []
      for (const host of own) if (yield* arrives(host, port)) reaching.push(host)
      if (reaching.length === 0) console.log(`webfetch loopback oracle: no address of this machine besides the loopback reaches a local server (${own.join(", ") || "none"})`)
      const before = arrived.length
      for (const denied of DENIED) {
        yield* withTool(
          (tool) =>
            Effect.gen(function* () {
              for (const host of reaching) {
                const url = `http://${host}:${port}/`
                const { result } = yield* settle(tool, { url, timeout: 2 })
                expect([denied, url, failureTag(result)]).toEqual([denied, url, "Permission.BlockedError"])
              }
            }),
          globalConfig({ permission: [{ action: "webfetch", resource: "*", effect: "allow" }, { action: "webfetch", resource: denied, effect: "deny" }] }),
        )
      }
      expect(arrived.length).toBe(before)
    }))
})
