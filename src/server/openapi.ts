/**
 * The OpenAPI 3.1 document of the server (`GET /api/doc`), generated from the route table: each
 * route's query parameters and body come from the very schemas the app decodes with, turned into
 * JSON Schema by the same generator tool definitions use (ToolJsonSchema), so the document cannot
 * promise a shape the server refuses. Path parameters are read from the path.
 */
export * as ServerOpenApi from "./openapi.js"

import { ToolJsonSchema } from "../tool/json-schema.js"
import type { ServerRoute } from "./route.js"

export const TITLE = "toolgate"

/** `/api/session/:sessionID/call` → `/api/session/{sessionID}/call`, and its parameter names. */
export const templated = (path: string): { readonly path: string; readonly names: ReadonlyArray<string> } => ({
  path: path.replace(/:([A-Za-z]+)/g, "{$1}"),
  names: [...path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] as string),
})

const ERROR_BODY = {
  type: "object",
  properties: { _tag: { type: "string" }, message: { type: "string" } },
  required: ["_tag", "message"],
}

const queryParameters = (route: ServerRoute.Route) => {
  if (route.query === undefined) return []
  const schema = ToolJsonSchema.make(route.query) as { readonly properties?: Record<string, { readonly description?: string }>; readonly required?: ReadonlyArray<string> }
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: schema.required?.includes(name) ?? false,
    schema: { type: "string" },
    ...(property.description === undefined ? {} : { description: property.description }),
  }))
}

const operation = (route: ServerRoute.Route) => {
  const { names } = templated(route.path)
  return {
    summary: route.summary,
    tags: [route.tag],
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[/:]+([a-zA-Z])/g, (_, letter: string) => letter.toUpperCase())}`,
    security: [{ bearer: [] }],
    parameters: [...names.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })), ...queryParameters(route)],
    ...(route.body === undefined ? {} : { requestBody: { required: true, content: { "application/json": { schema: ToolJsonSchema.make(route.body) } } } }),
    responses: Object.fromEntries(
      Object.entries(route.responses).map(([status, response]) => [
        status,
        {
          description: response.description,
          ...(status === "204" ? {} : { content: { "application/json": { schema: response.schema === undefined ? (Number(status) >= 400 ? ERROR_BODY : {}) : ToolJsonSchema.make(response.schema) } } }),
        },
      ]),
    ),
  }
}

/**
 * The document for `routes`.
 * @example ServerOpenApi.document(routes, "0.1.0").paths["/api/session"].post.requestBody
 */
export const document = (routes: ReadonlyArray<ServerRoute.Route>, version: string) => {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const key = templated(route.path).path
    paths[key] = { ...paths[key], [route.method.toLowerCase()]: operation(route) }
  }
  return {
    openapi: "3.1.0",
    info: { title: TITLE, version },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    paths,
  }
}
