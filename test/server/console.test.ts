/**
 * The console's files over real HTTP (issue 18, item 1): served at `/` without a token (they hold
 * no data), with a Content-Security-Policy that runs only the page's own script and talks only to
 * this server; the Host check still applies, and everything the page asks for needs the token.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ServerConsole } from "../../src/server/console.js"
import { raw, send, start } from "../lib/server.js"

describe("the console's files", () => {
  it.live("are served without a token, with the CSP, each the built file's bytes", () =>
    Effect.gen(function* () {
      const server = yield* start()
      for (const [route, entry] of Object.entries(ServerConsole.FILES)) {
        const response = yield* Effect.promise(() => fetch(`${server.url}${route}`))
        const text = yield* Effect.promise(() => response.text())
        expect({ route, status: response.status, type: response.headers.get("content-type"), csp: response.headers.get("content-security-policy") }).toEqual({
          route,
          status: 200,
          type: entry.type,
          csp: ServerConsole.CONTENT_SECURITY_POLICY,
        })
        expect(text).toBe(readFileSync(`${ServerConsole.DIRECTORY}${entry.file}`, "utf8"))
        expect(response.headers.get("access-control-allow-origin")).toBeNull()
      }
      // The page loads its script and style from this server only, never inline.
      const page = readFileSync(`${ServerConsole.DIRECTORY}index.html`, "utf8")
      expect(page).toContain('<script type="module" src="/console/app.js"></script>')
      expect(page).not.toMatch(/<script>(?!<\/script>)/)
      expect(ServerConsole.CONTENT_SECURITY_POLICY).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      )
    }))

  it.live("are refused to a rebinding Host, and other paths still need the token", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const rebinding = yield* Effect.promise(() => raw(server.port, "/", { host: "evil.example" }))
      expect(rebinding.status).toBe(403)
      expect((yield* Effect.promise(() => send(`${server.url}/api/location`))).status).toBe(401)
      expect((yield* Effect.promise(() => send(`${server.url}/console/other.js`))).status).toBe(401)
    }))

  it.live("lists the directory serve started in, the allowed roots and the open Locations (GET /api/location)", () =>
    Effect.gen(function* () {
      const server = yield* start()
      expect((yield* Effect.promise(() => server.api("/api/location"))).body).toEqual({ root: server.root, allowed: [server.root], data: [] })
      yield* Effect.promise(() => server.api("/api/session", { body: {} }))
      const listed = (yield* Effect.promise(() => server.api("/api/location"))).body
      expect(listed.data.map((entry: { directory: string }) => entry.directory)).toEqual([server.root])
    }))
})
