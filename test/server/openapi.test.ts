/**
 * GET /api/doc (issue 17, item 3): an OpenAPI 3.1 document generated from the route table, so
 * every route the server answers is in it, with the very schemas its bodies are decoded with.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ServerOpenApi } from "../../src/server/openapi.js"
import { ServerRoutes } from "../../src/server/routes.js"
import { PermissionRoutes } from "../../src/server/routes/permission.js"
import { QuestionRoutes } from "../../src/server/routes/question.js"
import { SessionRoutes } from "../../src/server/routes/session.js"
import { ToolJsonSchema } from "../../src/tool/json-schema.js"
import { Version } from "../../src/version.js"
import { start } from "../lib/server.js"

describe("ServerOpenApi", () => {
  it.live("serves an OpenAPI 3.1 document of every route, behind the token", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const answer = yield* Effect.promise(() => server.api("/api/doc"))
      expect(answer.status).toBe(200)
      const doc = answer.body
      expect(doc).toEqual(ServerOpenApi.document(ServerRoutes.ALL, Version.current))
      expect(doc.openapi).toBe("3.1.0")
      expect(doc.info).toEqual({ title: ServerOpenApi.TITLE, version: Version.current })
      expect(doc.components.securitySchemes).toEqual({ bearer: { type: "http", scheme: "bearer" } })
      const listed = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
      expect(listed.sort()).toEqual(ServerRoutes.ALL.map((route) => `${route.method} ${ServerOpenApi.templated(route.path).path}`).sort())
      // Every operation needs the token.
      for (const route of ServerRoutes.ALL) expect(doc.paths[ServerOpenApi.templated(route.path).path][route.method.toLowerCase()].security).toEqual([{ bearer: [] }])
      expect((yield* Effect.promise(() => fetch(`${server.url}/api/doc`))).status).toBe(401)
    }))

  it.live("gives each route's body the schema the server decodes it with, and path and query parameters", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const doc = (yield* Effect.promise(() => server.api("/api/doc"))).body
      const reply = doc.paths["/api/session/{sessionID}/permission/{requestID}/reply"].post
      expect(reply.requestBody).toEqual({ required: true, content: { "application/json": { schema: ToolJsonSchema.make(PermissionRoutes.ReplyBody) } } })
      expect(reply.requestBody.content["application/json"].schema).toMatchObject({ type: "object", properties: { reply: { enum: ["once", "always", "reject"] } }, required: ["reply"] })
      expect(reply.parameters).toEqual([
        { name: "sessionID", in: "path", required: true, schema: { type: "string" } },
        { name: "requestID", in: "path", required: true, schema: { type: "string" } },
      ])
      expect(Object.keys(reply.responses).sort()).toEqual(["204", "400", "404", "409", "410"])
      expect(reply.responses["204"]).toEqual({ description: "Replied" })
      expect(doc.paths["/api/session/{sessionID}/call"].post.requestBody.content["application/json"].schema).toEqual(ToolJsonSchema.make(SessionRoutes.CallBody))
      expect(doc.paths["/api/session/{sessionID}/question/{requestID}/reply"].post.requestBody.content["application/json"].schema).toEqual(ToolJsonSchema.make(QuestionRoutes.ReplyBody))
      expect(doc.paths["/api/permission/request"].get.parameters).toEqual([
        { name: "directory", in: "query", required: false, schema: { type: "string" }, description: "The working directory (default: where toolgate serve started)" },
      ])
      const operationIds = Object.values(doc.paths as Record<string, Record<string, { readonly operationId: string }>>).flatMap((methods) => Object.values(methods).map((operation) => operation.operationId))
      expect(new Set(operationIds).size).toBe(operationIds.length)
    }))

  const paths: ReadonlyArray<readonly [string, string, ReadonlyArray<string>]> = [
    ["/api/session", "/api/session", []],
    ["/api/session/:sessionID/call", "/api/session/{sessionID}/call", ["sessionID"]],
    ["/api/session/:sessionID/permission/:requestID/reply", "/api/session/{sessionID}/permission/{requestID}/reply", ["sessionID", "requestID"]],
    ["/api/permission/saved/:id", "/api/permission/saved/{id}", ["id"]],
  ]
  for (const [path, templated, names] of paths)
    it(`writes ${path} as ${templated}`, () => {
      expect(ServerOpenApi.templated(path)).toEqual({ path: templated, names })
    })
})
