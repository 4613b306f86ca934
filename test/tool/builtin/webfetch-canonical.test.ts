import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { globalConfig } from "../../lib/config.js"
import { settle, textOf } from "../../lib/file-tools.js"
import { serve } from "../../lib/http-server.js"
import type { Handler } from "../../lib/http-server.js"
import { failureTag, page, summary, withTool } from "./web/webfetch-harness.js"

type RuleEffect = "allow" | "deny" | "ask"
const rule = (resource: string, effect: RuleEffect) => ({ action: "webfetch", resource, effect })
/** Every fetch allowed, then `extra` (last match wins). */
const allowing = (...extra: ReadonlyArray<ReturnType<typeof rule>>) => globalConfig({ permission: [rule("*", "allow"), ...extra] })

const redirectTo = (location: string): Handler => (_, response) => {
  response.writeHead(302, { location })
  response.end()
}

/** Other spellings of 127.0.0.1 (`P` is the server's port). */
const LOOPBACK_SPELLINGS = [
  "http://[::ffff:127.0.0.1]:{port}/",
  "http://[::ffff:7f00:1]:{port}/",
  "http://[0:0:0:0:0:ffff:127.0.0.1]:{port}/",
  "http://localhost:{port}/",
  "http://LOCALHOST.:{port}/",
  "http://0.0.0.0:{port}/",
  "http://0:{port}/",
  "http://[::ffff:0:0]:{port}/",
  "http://2130706433:{port}/",
  "http://0x7f.1:{port}/",
  "http://0177.0.0.1:{port}/",
  "http://127.1:{port}/",
  "http://a@127.0.0.1:{port}/",
  "HTTP://127.0.0.1.:{port}/x#frag",
  // The rest of 127.0.0.0/8 reaches a service bound to all interfaces (an attacker's review, 2026-12-04).
  "http://127.0.0.2:{port}/",
  "http://127.255.255.254:{port}/",
  "http://2130706434:{port}/",
  "http://[::ffff:7f00:2]:{port}/",
]

/** Other spellings of `/admin/…` (on the server's origin `{origin}`). */
const ADMIN_SPELLINGS = ["{origin}/%61dmin/", "{origin}//admin/", "{origin}/x/%2e%2e/admin/", "{origin}/x/..%2fadmin/", "{origin}/x/..%5Cadmin/", "{origin}/admin;x/", "{origin}/admin%3Bx/panel", "{origin}/ad\tmin/", "{origin}\\admin\\"]

describe("WebFetchTool canonical URLs", () => {
  it.live("denies every spelling of a denied host, and the server never hears of it", () =>
    Effect.gen(function* () {
      const server = yield* serve(page("<p>loopback</p>"))
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            for (const spelling of LOOPBACK_SPELLINGS) {
              const { result, asked } = yield* settle(tool, { url: spelling.replace("{port}", String(server.port)) })
              expect([spelling, failureTag(result), asked]).toEqual([spelling, "Permission.BlockedError", []])
            }
            expect(server.requests).toEqual([])
          }),
        allowing(rule("http://127.0.0.1:*", "deny")),
      )
    }))

  it.live("counts 0.0.0.0 as itself as well as the loopback it reaches", () =>
    Effect.gen(function* () {
      const server = yield* serve(page("<p>loopback</p>"))
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            for (const spelling of ["http://0:{port}/", "http://[::ffff:0:0]:{port}/", "http://0.0.0.0.:{port}/"]) {
              const { result } = yield* settle(tool, { url: spelling.replace("{port}", String(server.port)) })
              expect([spelling, failureTag(result)]).toEqual([spelling, "Permission.BlockedError"])
            }
            expect(server.requests).toEqual([])
          }),
        allowing(rule("http://0.0.0.0:*", "deny")),
      )
    }))

  it.live("denies other spellings of the metadata address before any connection", () =>
    withTool(
      (tool) =>
        Effect.gen(function* () {
          for (const url of ["http://[::ffff:169.254.169.254]/latest/meta-data/", "http://[::ffff:a9fe:a9fe]/", "http://[0:0:0:0:0:ffff:a9fe:a9fe]:80/"]) {
            const { result } = yield* settle(tool, { url, timeout: 1 })
            expect([url, failureTag(result)]).toEqual([url, "Permission.BlockedError"])
          }
        }),
      allowing(rule("http://169.254.169.254/*", "deny")),
    ))

  it.live("denies every spelling of a denied path, and the server never hears of it", () =>
    Effect.gen(function* () {
      const server = yield* serve(page("<p>admin</p>"))
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            for (const spelling of ADMIN_SPELLINGS) {
              const { result } = yield* settle(tool, { url: spelling.replace("{origin}", server.origin) })
              expect([spelling, failureTag(result)]).toEqual([spelling, "Permission.BlockedError"])
            }
            expect(server.requests).toEqual([])
            expect(textOf((yield* settle(tool, { url: server.url("/public/") })).result)).toBe("admin")
          }),
        allowing(rule("*/admin/*", "deny")),
      )
    }))

  it.live("asks about a path with an escaped slash or backslash or a ; even where a wildcard allows everything, and saves nothing", () =>
    Effect.gen(function* () {
      const server = yield* serve(page("<p>reached</p>"))
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            for (const path of ["/a%2Fb", "/a%2fb", "/a%5cb", "/a;b", "/a%3Bb"]) {
              const { result, asked } = yield* settle(tool, { url: server.url(path) }, "reject")
              expect([path, failureTag(result), asked.map((request) => request.save)]).toEqual([path, "Permission.DeclinedError", [[]]])
            }
            expect(server.requests).toEqual([])
            const once = yield* settle(tool, { url: server.url("/a%2fb") })
            expect(summary(once.asked)).toEqual([{ action: "webfetch", resources: [server.url("/a%2Fb")], save: [] }])
            expect(textOf(once.result)).toBe("reached")
            expect(server.requests.map((request) => request.path)).toEqual(["/a%2fb"])
          }),
        allowing(),
      )
    }))

  it.live("asks again before a redirect to another opaque path of an approved origin", () =>
    Effect.gen(function* () {
      const server = yield* serve((request, response) => (request.path === "/a%2Fb" ? redirectTo("/c%2Fd")(request, response) : page("<p>followed</p>")(request, response)))
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            const { result, asked } = yield* settle(tool, { url: server.url("/a%2Fb") })
            expect(textOf(result)).toBe("followed")
            expect(asked.map((request) => request.resources)).toEqual([[server.url("/a%2Fb")], [server.url("/c%2Fd")]])
          }),
        allowing(),
      )
    }))

  it.live("lets a rule naming the exact canonical URL allow an opaque path", () =>
    Effect.gen(function* () {
      const server = yield* serve(page("<p>exact</p>"))
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            const { result, asked } = yield* settle(tool, { url: server.url("/files/a%2fb") }, "reject")
            expect([textOf(result), asked]).toEqual(["exact", []])
          }),
        globalConfig({ permission: [rule("*", "ask"), rule(server.url("/files/a%2Fb"), "allow")] }),
      )
    }))

  it.live("judges every redirect hop on its canonical URL", () =>
    Effect.gen(function* () {
      const target = yield* serve(page("<p>target</p>"))
      const locations = [
        "/%61dmin/x",
        "//admin/x",
        "/x/%2E%2E/admin/x",
        "/admin;jsessionid=1/x",
        `http://localhost:${target.port}/`,
        `http://[::ffff:7f00:1]:${target.port}/`,
        `http://0.0.0.0:${target.port}/`,
      ]
      const server = yield* serve((request, response) => redirectTo(locations[Number(request.path.slice(1))] as string)(request, response))
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            for (const [index, location] of locations.entries()) {
              const { result } = yield* settle(tool, { url: server.url(`/${index}`) })
              expect([location, failureTag(result)]).toEqual([location, "Permission.BlockedError"])
            }
            expect(server.requests.map((request) => request.path)).toEqual(locations.map((_, index) => `/${index}`))
            expect(target.requests).toEqual([])
          }),
        allowing(rule("*/admin/*", "deny"), rule(`http://127.0.0.1:${target.port}/*`, "deny")),
      )
    }))

  it.live("shows the person the URL as requested and its canonical form, and saves the canonical origin", () =>
    Effect.gen(function* () {
      const server = yield* serve(page("<p>ok</p>"))
      yield* withTool((tool) =>
        Effect.gen(function* () {
          const url = `http://[::ffff:127.0.0.1]:${server.port}//%61/b#top`
          const { result, asked } = yield* settle(tool, { url })
          expect(textOf(result)).toBe("ok")
          expect(asked.map((request) => [request.resources, request.save, request.metadata])).toEqual([
            [[server.url("/a/b")], [`${server.origin}/*`], { url: `http://[::ffff:7f00:1]:${server.port}//%61/b#top`, canonical: server.url("/a/b") }],
          ])
          const plain = yield* settle(tool, { url: server.url("/a") })
          expect(plain.asked.map((request) => request.metadata)).toEqual([{ url: server.url("/a") }])
        }))
    }))
})
