import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WebHttp } from "../../../src/tool/builtin/web/http.js"
import { WebFetchTool } from "../../../src/tool/builtin/webfetch.js"
import { globalConfig } from "../../lib/config.js"
import { settle, textOf } from "../../lib/file-tools.js"
import { serve } from "../../lib/http-server.js"
import type { Handler } from "../../lib/http-server.js"
import { page, summary, withTool } from "./web/webfetch-harness.js"

/** `/hop/<n>` redirects (relative Location) to `/hop/<n - 1>`; `/hop/0` is the page. */
const chain: Handler = (request, response) => {
  const hops = Number(/^\/hop\/(\d+)/.exec(request.path)?.[1] ?? 0)
  if (hops === 0) return page("<p>arrived</p>")(request, response)
  response.writeHead(hops % 2 === 0 ? 302 : 301, { location: `${hops - 1}` })
  response.end()
}

const redirectTo = (location: string, status = 302): Handler => (_, response) => {
  response.writeHead(status, { location })
  response.end()
}

const basic = (pair: string) => `Basic ${Buffer.from(pair).toString("base64")}`

describe("WebFetchTool redirects", () => {
  it.live("never follows a same-origin redirect around a path rule that denies or asks", () =>
    Effect.gen(function* () {
      const server = yield* serve((request, response) => {
        if (request.path.startsWith("/login")) return redirectTo(decodeURIComponent(request.path.slice("/login?next=".length)))(request, response)
        return page("<p>admin page</p>")(request, response)
      })
      const rules = (effect: "deny" | "ask") =>
        globalConfig({ permission: [{ action: "webfetch", resource: "*", effect: "allow" }, { action: "webfetch", resource: `${server.origin}/admin/*`, effect }] })
      yield* withTool((tool) =>
        Effect.gen(function* () {
          const { result } = yield* settle(tool, { url: server.url("/login?next=%2Fadmin%2Fdelete") })
          expect(result._tag === "Failure" && (result.failure as { _tag: string })._tag).toBe("Permission.BlockedError")
          expect(server.requests.map((request) => request.path)).toEqual(["/login?next=%2Fadmin%2Fdelete"])
        }), rules("deny"))
      yield* withTool((tool) =>
        Effect.gen(function* () {
          const { asked } = yield* settle(tool, { url: server.url("/login?next=%2Fadmin%2Fpanel") }, "reject")
          expect(asked.map((request) => request.resources)).toEqual([[server.url("/admin/panel")]])
        }), rules("ask"))
    }))

  it.live("a same-origin hop decided by the same rule as the first URL does not ask again", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve((request, response) => (request.path === "/docs" ? redirectTo("/docs/")(request, response) : page("<p>docs</p>")(request, response)))
        const { result, asked } = yield* settle(tool, { url: server.url("/docs") })
        expect(textOf(result)).toBe("docs")
        expect(asked).toHaveLength(1)
      })))

  it.live("refuses a host with * or ? before asking, and never crashes on a malformed user part", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const wildcard = yield* settle(tool, { url: "http://*/x" })
        expect(wildcard).toMatchObject({ asked: [] })
        expect(textOf(wildcard.result)).toBe(WebFetchTool.Messages.wildcardHost("*"))
        const target = yield* serve(page("<p>reached</p>"))
        const malformed = yield* settle(tool, { url: `http://%ZZ@127.0.0.1:${target.port}/x` })
        expect(textOf(malformed.result)).toBe("reached")
        expect(target.requests[0]?.headers.authorization).toBe(basic("%ZZ:"))
        const server = yield* serve(redirectTo(`http://%ZZ@127.0.0.1:${target.port}/next`))
        const redirected = yield* settle(tool, { url: server.url("/start") })
        expect(textOf(redirected.result)).toBe("reached")
        expect(target.requests[1]?.headers.authorization).toBeUndefined()
      })))

  it.live("follows relative redirects and reports the final URL", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve(chain)
        const { result, asked } = yield* settle(tool, { url: server.url("/hop/3") })
        expect(result._tag === "Success" && result.success.structured).toEqual({
          url: server.url("/hop/3"),
          finalUrl: server.url("/hop/0"),
          contentType: "text/html",
          format: "markdown",
          output: "arrived",
        })
        expect(server.requests.map((request) => request.path)).toEqual(["/hop/3", "/hop/2", "/hop/1", "/hop/0"])
        expect(asked).toHaveLength(1)
      })))

  it.live(`follows ${WebFetchTool.MAX_REDIRECTS} redirects and refuses the next`, () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve(chain)
        const ten = yield* settle(tool, { url: server.url(`/hop/${WebFetchTool.MAX_REDIRECTS}`) })
        expect(textOf(ten.result)).toBe("arrived")
        const eleven = yield* settle(tool, { url: server.url(`/hop/${WebFetchTool.MAX_REDIRECTS + 1}`) })
        expect(textOf(eleven.result)).toBe("Too many redirects (more than 10)")
        expect(textOf(eleven.result)).toBe(WebHttp.Messages.tooManyRedirects(WebFetchTool.MAX_REDIRECTS))
        expect(server.requests.filter((request) => request.path === "/hop/0")).toHaveLength(1)
      })))

  it.live("sends credentials of the URL as Basic auth to its own origin only, never across a redirect", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const other = yield* serve(page("<p>elsewhere</p>"))
        const server = yield* serve((request, response) => {
          if (request.path === "/start") return redirectTo("/same")(request, response)
          if (request.path === "/same") return redirectTo(other.url("/landing"))(request, response)
          return page("")(request, response)
        })
        const url = `http://ada:p%40ss%3Aword@127.0.0.1:${server.port}/start`
        const { result, asked } = yield* settle(tool, { url })
        expect(textOf(result)).toBe("elsewhere")
        expect(server.requests.map((request) => [request.path, request.headers.authorization])).toEqual([
          ["/start", basic("ada:p@ss:word")],
          ["/same", basic("ada:p@ss:word")],
        ])
        expect(other.requests.map((request) => [request.path, request.headers.authorization])).toEqual([["/landing", undefined]])
        expect(summary(asked)).toEqual([
          { action: "webfetch", resources: [server.url("/start")], save: [`${server.origin}/*`] },
          { action: "webfetch", resources: [other.url("/landing")], save: [`${other.origin}/*`] },
        ])
        // What the person is shown names the first URL without its credentials.
        expect(asked.map((request) => request.metadata)).toEqual([{ url: server.url("/start") }, { url: other.url("/landing"), redirectedFrom: server.url("/start") }])
        expect(result._tag === "Success" && result.success.structured).toMatchObject({ url: server.url("/start"), finalUrl: other.url("/landing") })
      })))

  it.live("does not send the credentials again when another origin redirects back", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const origin = { url: "" }
        const other = yield* serve((_, response) => redirectTo(`${origin.url}/back`)(_, response))
        const server = yield* serve((request, response) =>
          request.path === "/start" ? redirectTo(other.url("/bounce"))(request, response) : page("<p>back home</p>")(request, response))
        origin.url = server.origin
        const { result } = yield* settle(tool, { url: `http://ada:pw@127.0.0.1:${server.port}/start` })
        expect(textOf(result)).toBe("back home")
        expect(server.requests.map((request) => [request.path, request.headers.authorization])).toEqual([
          ["/start", basic("ada:pw")],
          ["/back", undefined],
        ])
        expect(other.requests.map((request) => request.headers.authorization)).toEqual([undefined])
      })))

  it.live("never uses credentials a server puts in a Location", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve((request, response) =>
          request.path === "/start" ? redirectTo(`http://eve:pw@127.0.0.1:${request.headers.host?.split(":")[1]}/next`)(request, response) : page("<p>ok</p>")(request, response))
        expect(textOf((yield* settle(tool, { url: server.url("/start") })).result)).toBe("ok")
        expect(server.requests.map((request) => request.headers.authorization)).toEqual([undefined, undefined])
      })))

  it.live("asks before following a redirect to an origin not yet approved, and a refusal stops it", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const other = yield* serve(page("<p>elsewhere</p>"))
        const server = yield* serve(redirectTo(other.url("/x")))
        const { result, asked } = yield* settle(tool, { url: server.url("/") }, (request) => Effect.succeed(request.resources[0] === server.url("/") ? "once" : "reject"))
        expect(asked).toHaveLength(2)
        // The person is told the second ask is for a redirect, and from where.
        expect(asked.map((request) => request.metadata)).toEqual([{ url: server.url("/") }, { url: other.url("/x"), redirectedFrom: server.url("/") }])
        expect(result._tag).toBe("Failure")
        expect(other.requests).toEqual([])
      })))

  it.live("does not count time spent waiting for an approval against the timeout", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const other = yield* serve(page("<p>late but fine</p>"))
        const server = yield* serve(redirectTo(other.url("/x")))
        const answer = () => Effect.sleep("600 millis").pipe(Effect.as("once" as const))
        const { result } = yield* settle(tool, { url: server.url("/"), timeout: 0.4 }, answer)
        expect(textOf(result)).toBe("late but fine")
      })))

  it.live("refuses a redirect to another scheme", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve(redirectTo("file:///etc/passwd", 301))
        expect(textOf((yield* settle(tool, { url: server.url("/") })).result)).toBe("Redirected to an unsupported URL: file:///etc/passwd")
      })))

  it.live("treats a 3xx without a Location as a failed request", () =>
    withTool((tool) =>
      Effect.gen(function* () {
        const server = yield* serve(page("", "text/plain", 304))
        expect(textOf((yield* settle(tool, { url: server.url("/") })).result)).toBe("Request failed with status 304")
      })))
})
