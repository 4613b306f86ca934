/**
 * Shared by the webfetch tests: the tool made against the real permission gate (every fetch asks
 * by default, so the tests see what is asked), and one-response servers.
 */
import type { ServerResponse } from "node:http"
import { Effect } from "effect"
import type { Config } from "../../../../src/config.js"
import type { Permission } from "../../../../src/permission/permission.js"
import { WebFetchTool } from "../../../../src/tool/builtin/webfetch.js"
import type { Tool } from "../../../../src/tool/tool.js"
import { globalConfig } from "../../../lib/config.js"
import type { Handler } from "../../../lib/http-server.js"
import { gateLayer, makeRoot } from "../../../lib/permission.js"

export const askFetches = globalConfig({ permission: [{ action: "webfetch", resource: "*", effect: "ask" }] })

export const withTool = <A, E>(body: (tool: Tool.AnyTool) => Effect.Effect<A, E, any>, config: Partial<Config.Info> = askFetches) =>
  Effect.gen(function* () {
    const root = yield* makeRoot
    return yield* Effect.flatMap(WebFetchTool.make, (tool) => body(tool) as Effect.Effect<A, E, never>).pipe(Effect.provide(gateLayer(root, { config })))
  })

/** A handler answering every request with this status, content type (null: none) and body. */
export const page =
  (body: string | Buffer, contentType: string | null = "text/html; charset=utf-8", status = 200): Handler =>
  (_, response: ServerResponse) => {
    response.writeHead(status, contentType === null ? {} : { "content-type": contentType })
    response.end(body)
  }

export const summary = (asked: ReadonlyArray<Permission.Request>) => asked.map((request) => ({ action: request.action, resources: request.resources, save: request.save }))
