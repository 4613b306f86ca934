/**
 * Shared by the webfetch tests: the tool made against the real permission gate (every fetch asks
 * by default, so the tests see what is asked), one-response servers, and a resolver a test
 * controls (names that exist nowhere else, each lookup recorded).
 */
import type { ServerResponse } from "node:http"
import { Effect } from "effect"
import type { Config } from "../../../../src/config.js"
import type { Permission } from "../../../../src/permission/permission.js"
import { WebDns } from "../../../../src/tool/builtin/web/dns.js"
import { WebFetchTool } from "../../../../src/tool/builtin/webfetch.js"
import type { Tool } from "../../../../src/tool/tool.js"
import { globalConfig } from "../../../lib/config.js"
import type { Handler } from "../../../lib/http-server.js"
import { gateLayer, makeRoot } from "../../../lib/permission.js"

export const askFetches = globalConfig({ permission: [{ action: "webfetch", resource: "*", effect: "ask" }] })

/** The tool (made with `options`, e.g. a test's own resolver) against the gate configured with `config`. */
export const withTool = <A, E>(body: (tool: Tool.AnyTool) => Effect.Effect<A, E, any>, config: Partial<Config.Info> = askFetches, options: WebFetchTool.Options = {}) =>
  Effect.gen(function* () {
    const root = yield* makeRoot
    return yield* Effect.flatMap(WebFetchTool.makeWith(options), (tool) => body(tool) as Effect.Effect<A, E, never>).pipe(Effect.provide(gateLayer(root, { config })))
  })

/** A handler answering every request with this status, content type (null: none) and body. */
export const page =
  (body: string | Buffer, contentType: string | null = "text/html; charset=utf-8", status = 200): Handler =>
  (_, response: ServerResponse) => {
    response.writeHead(status, contentType === null ? {} : { "content-type": contentType })
    response.end(body)
  }

export const summary = (asked: ReadonlyArray<Permission.Request>) => asked.map((request) => ({ action: request.action, resources: request.resources, save: request.save }))

/** A resolver answering from `hosts` (ENOTFOUND for any other name) and recording every name it was asked. */
export const fakeLookup = (hosts: Readonly<Record<string, ReadonlyArray<string>>>) => {
  const asked: string[] = []
  const lookup: WebDns.Lookup = (hostname) =>
    Effect.suspend(() => {
      asked.push(hostname)
      const found = hosts[hostname]
      return found === undefined
        ? Effect.fail(new WebDns.LookupError({ hostname, code: "ENOTFOUND" }))
        : Effect.succeed(found.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) })))
    })
  return { lookup, asked }
}

/** The tag of a settled failure ("" for a success). */
export const failureTag = (result: { readonly _tag: "Success" } | { readonly _tag: "Failure"; readonly failure: unknown }) =>
  result._tag === "Failure" ? ((result.failure as { readonly _tag?: string })._tag ?? "") : ""
