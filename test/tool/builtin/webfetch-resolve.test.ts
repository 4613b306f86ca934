import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WebDns } from "../../../src/tool/builtin/web/dns.js"
import { WebHttp } from "../../../src/tool/builtin/web/http.js"
import { globalConfig } from "../../lib/config.js"
import { settle, textOf } from "../../lib/file-tools.js"
import { serve } from "../../lib/http-server.js"
import type { Handler } from "../../lib/http-server.js"
import { failureTag, fakeLookup, page, summary, withTool } from "./web/webfetch-harness.js"

type RuleEffect = "allow" | "deny" | "ask"
const rule = (resource: string, effect: RuleEffect) => ({ action: "webfetch", resource, effect })
const allowing = (...extra: ReadonlyArray<ReturnType<typeof rule>>) => globalConfig({ permission: [rule("*", "allow"), ...extra] })
const asking = (...extra: ReadonlyArray<ReturnType<typeof rule>>) => globalConfig({ permission: [rule("*", "ask"), ...extra] })

const redirectTo = (location: string): Handler => (_, response) => {
  response.writeHead(302, { location })
  response.end()
}

describe("WebFetchTool resolved addresses", () => {
  it.live("judges a name at every address it resolves to: one denied address denies", () =>
    Effect.gen(function* () {
      const server = yield* serve(page("<p>loopback</p>"))
      const dns = fakeLookup({
        "internal.test": ["127.0.0.1"],
        "mixed.test": ["192.0.2.1", "127.0.0.1"],
        "mapped.test": ["::ffff:127.0.0.1"],
        "metadata.test": ["169.254.169.254"],
      })
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            for (const host of ["internal.test", "mixed.test", "mapped.test", "metadata.test"]) {
              const { result } = yield* settle(tool, { url: `http://${host}:${server.port}/latest/`, timeout: 1 })
              expect([host, failureTag(result)]).toEqual([host, "Permission.BlockedError"])
            }
            expect(server.requests).toEqual([])
            expect(dns.asked).toEqual(["internal.test", "mixed.test", "mapped.test", "metadata.test"])
          }),
        allowing(rule("http://127.0.0.1:*", "deny"), rule("http://169.254.169.254:*", "deny")),
        { lookup: dns.lookup },
      )
    }))

  it.live("counts localhost as both loopback addresses, whatever the resolver says", () =>
    Effect.gen(function* () {
      const server = yield* serve(page("<p>loopback</p>"))
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            for (const url of [`http://localhost:${server.port}/`, `http://api.localhost:${server.port}/`]) {
              const { result } = yield* settle(tool, { url })
              expect([url, failureTag(result)]).toEqual([url, "Permission.BlockedError"])
            }
            expect(server.requests).toEqual([])
          }),
        allowing(rule("http://[::1]:*", "deny")),
      )
    }))

  it.live("connects to the address that was judged and never resolves the name again", () =>
    Effect.gen(function* () {
      const server = yield* serve((request, response) => (request.path === "/start" ? redirectTo("/page")(request, response) : page("<p>pinned</p>")(request, response)))
      // No resolver but this one knows pinned.test: a second lookup at connect time would fail.
      const dns = fakeLookup({ "pinned.test": ["127.0.0.1"] })
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            const { result } = yield* settle(tool, { url: `http://pinned.test:${server.port}/start` })
            expect(textOf(result)).toBe("pinned")
            expect(server.requests.map((request) => [request.path, request.headers.host])).toEqual([
              ["/start", `pinned.test:${server.port}`],
              ["/page", `pinned.test:${server.port}`],
            ])
            expect(dns.asked).toEqual(["pinned.test", "pinned.test"])
          }),
        allowing(),
        { lookup: dns.lookup },
      )
    }))

  it.live("judges each hop on its own lookup, so a name rebound to a denied address between hops is denied", () =>
    Effect.gen(function* () {
      const server = yield* serve((request, response) => (request.path === "/start" ? redirectTo("/next")(request, response) : page("<p>next</p>")(request, response)))
      const answers = [["127.0.0.1"], ["169.254.169.254"]]
      const lookup: WebDns.Lookup = (hostname) =>
        Effect.sync(() => (answers.shift() ?? []).map((address) => ({ address, family: 4 as const }))).pipe(
          Effect.flatMap((found) => (found.length === 0 ? Effect.fail(new WebDns.LookupError({ hostname, code: "ENOTFOUND" })) : Effect.succeed(found))),
        )
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            const { result } = yield* settle(tool, { url: `http://rebind.test:${server.port}/start`, timeout: 1 })
            expect(failureTag(result)).toBe("Permission.BlockedError")
            expect(server.requests.map((request) => request.path)).toEqual(["/start"])
          }),
        allowing(rule("http://169.254.169.254:*", "deny")),
        { lookup },
      )
    }))

  it.live("looks a name up only once its URL is allowed or approved", () =>
    Effect.gen(function* () {
      const server = yield* serve(page("<p>approved</p>"))
      const dns = fakeLookup({ "secret.test": ["127.0.0.1"] })
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            const rejected = yield* settle(tool, { url: `http://secret.test:${server.port}/exfiltrate` }, "reject")
            expect(failureTag(rejected.result)).toBe("Permission.DeclinedError")
            const denied = yield* settle(tool, { url: "http://denied.secret.test/x" })
            expect(failureTag(denied.result)).toBe("Permission.BlockedError")
            expect(dns.asked).toEqual([])
            const approved = yield* settle(tool, { url: `http://secret.test:${server.port}/page` }, "once")
            expect(textOf(approved.result)).toBe("approved")
            expect(dns.asked).toEqual(["secret.test"])
            expect(server.requests.map((request) => request.path)).toEqual(["/page"])
          }),
        asking(rule("http://denied.secret.test/*", "deny")),
        { lookup: dns.lookup },
      )
    }))

  it.live("keeps a rule or an approval naming a host, not undone by the catch-all its addresses fall under", () =>
    Effect.gen(function* () {
      const server = yield* serve(page("<p>docs</p>"))
      const dns = fakeLookup({ "docs.test": ["127.0.0.1"], "saved.test": ["127.0.0.1"] })
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            const named = yield* settle(tool, { url: `http://docs.test:${server.port}/a` }, "reject")
            expect([textOf(named.result), named.asked]).toEqual(["docs", []])
            const first = yield* settle(tool, { url: `http://saved.test:${server.port}/a` }, "always")
            expect(summary(first.asked)).toEqual([{ action: "webfetch", resources: [`http://saved.test:${server.port}/a`], save: [`http://saved.test:${server.port}/*`] }])
            const second = yield* settle(tool, { url: `http://saved.test:${server.port}/b` }, "reject")
            expect([textOf(second.result), second.asked]).toEqual(["docs", []])
          }),
        asking(rule("http://docs.test:*", "allow")),
        { lookup: dns.lookup },
      )
    }))

  it.live("asks about an address a rule asks about, next to the name that resolved to it, and always saves both", () =>
    Effect.gen(function* () {
      const server = yield* serve(page("<p>internal</p>"))
      const dns = fakeLookup({ "internal.test": ["127.0.0.1"] })
      const name = `http://internal.test:${server.port}`
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            const rejected = yield* settle(tool, { url: `${name}/x` }, "reject")
            expect(failureTag(rejected.result)).toBe("Permission.DeclinedError")
            expect(server.requests).toEqual([])
            const always = yield* settle(tool, { url: `${name}/x` }, "always")
            expect(summary(always.asked)).toEqual([
              { action: "webfetch", resources: [`${name}/x`, server.url("/x")], save: [`${name}/*`, `${server.origin}/*`] },
            ])
            expect(always.asked.map((request) => request.metadata)).toEqual([{ url: `${name}/x` }])
            expect(textOf(always.result)).toBe("internal")
            const later = yield* settle(tool, { url: `${name}/y` }, "reject")
            expect([textOf(later.result), later.asked]).toEqual(["internal", []])
          }),
        allowing(rule("http://127.0.0.1:*", "ask")),
        { lookup: dns.lookup },
      )
    }))

  it.live("uses only the resolver it is given: a name it does not know fails after judging, even localhost", () =>
    Effect.gen(function* () {
      const server = yield* serve(page("<p>reached</p>"))
      yield* withTool(
        (tool) =>
          Effect.gen(function* () {
            const { result, asked } = yield* settle(tool, { url: `http://localhost:${server.port}/` })
            expect(textOf(result)).toBe("Request failed: ENOTFOUND")
            expect(textOf(result)).toBe(WebHttp.Messages.network("ENOTFOUND"))
            expect(asked).toHaveLength(1)
            expect(server.requests).toEqual([])
          }),
        undefined,
        { lookup: fakeLookup({}).lookup },
      )
    }))
})
