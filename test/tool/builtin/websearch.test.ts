import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Config } from "../../../src/config.js"
import { Permission } from "../../../src/permission/permission.js"
import { WebSearch } from "../../../src/tool/builtin/web/search.js"
import { WebSearchTool } from "../../../src/tool/builtin/websearch.js"
import { Tool } from "../../../src/tool/tool.js"
import { globalConfig } from "../../lib/config.js"
import { settle, textOf } from "../../lib/file-tools.js"
import { serve } from "../../lib/http-server.js"
import type { Handler, Server } from "../../lib/http-server.js"
import { gateLayer, makeRoot } from "../../lib/permission.js"

type Env = Readonly<Record<string, string | undefined>>

/** The tool made against the real gate, a config with `websearch` settings, and `env` as the environment. */
const withTool = <A, E>(env: Env, websearch: object, body: (tool: Tool.AnyTool) => Effect.Effect<A, E, any>, rules: ReadonlyArray<object> = []) =>
  Effect.gen(function* () {
    const root = yield* makeRoot
    const config: Partial<Config.Info> = globalConfig({ websearch, permission: rules })
    return yield* Effect.flatMap(WebSearchTool.make, (tool) => body(tool) as Effect.Effect<A, E, never>).pipe(
      Effect.provideService(WebSearchTool.Environment, env),
      Effect.provide(gateLayer(root, { config })),
    )
  })

/** Answers like the provider: `answer` decides status and JSON from the parsed request body. */
const provider = (path: string, answer: (body: unknown) => { readonly status: number; readonly json: unknown }): Handler => (request, response) => {
  const { status, json } = request.path === path && request.method === "POST" ? answer(JSON.parse(request.body)) : { status: 404, json: { error: "no route" } }
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(json))
}

const EXA_RESULTS = {
  requestId: "b5947044c4b78efa9552a7c89b306d95",
  results: [
    {
      id: "https://arxiv.org/abs/2307.06435",
      title: "A Comprehensive Overview of Large Language Models",
      url: "https://arxiv.org/abs/2307.06435",
      publishedDate: "2023-11-16T01:36:32.547Z",
      author: "Humza Naveed",
      highlights: ["LLMs have shown remarkable capabilities.", "  This survey covers them.  "],
      highlightScores: [0.4, 0.3],
    },
    { id: "x", title: null, url: "https://example.com/untitled", publishedDate: null, text: "Only text here." },
  ],
}

const PARALLEL_RESULTS = {
  search_id: "search_fcb2b4f3c75e418687bccaa1a8381331",
  results: [
    { url: "https://www.example.com", title: "Sample webpage title", publish_date: "2024-01-15", excerpts: ["Sample excerpt 1", "Sample excerpt 2"] },
    { url: "https://www.example.org/b", title: "Second", excerpts: [] },
  ],
  session_id: "session_1",
}

const exaAt = (server: Server) => ({ provider: "exa", exa_base_url: server.url("/exa/") })
const parallelAt = (server: Server) => ({ parallel_base_url: server.url("/p") })

describe("WebSearchTool", () => {
  it.live("has a valid definition with every input field described", () =>
    withTool({ EXA_API_KEY: "k" }, {}, (tool) =>
      Effect.sync(() => {
        expect(Tool.validate(WebSearchTool.name, tool)).toBeUndefined()
        expect(Tool.definition(WebSearchTool.name, tool).inputSchema).toMatchObject({ type: "object", required: ["query"] })
      })))

  it.live("searches Exa with its documented request and renders each hit", () =>
    Effect.gen(function* () {
      const server = yield* serve(provider("/exa/search", () => ({ status: 200, json: EXA_RESULTS })))
      yield* withTool({ EXA_API_KEY: "exa-key", PARALLEL_API_KEY: "parallel-key" }, exaAt(server), (tool) =>
        Effect.gen(function* () {
          const { result, asked } = yield* settle(tool, { query: "large language models", numResults: 5 })
          expect(textOf(result)).toBe(
            [
              "## [A Comprehensive Overview of Large Language Models](https://arxiv.org/abs/2307.06435)",
              "Published: 2023-11-16T01:36:32.547Z",
              "LLMs have shown remarkable capabilities.",
              "This survey covers them.",
              "",
              "## [https://example.com/untitled](https://example.com/untitled)",
              "Only text here.",
            ].join("\n"),
          )
          expect(asked.map((request) => [request.action, request.resources, request.save])).toEqual([["websearch", ["large language models"], ["*"]]])
          const [request] = server.requests
          expect(request?.headers["x-api-key"]).toBe("exa-key")
          expect(request?.headers["content-type"]).toBe("application/json")
          expect(JSON.parse(request?.body ?? "")).toEqual({ query: "large language models", type: "auto", numResults: 5, contents: { highlights: true } })
        }), [{ action: "websearch", resource: "*", effect: "ask" }])
    }))

  it.live("searches Parallel with its documented request, asking for the default number of results", () =>
    Effect.gen(function* () {
      const server = yield* serve(provider("/p/v1/search", () => ({ status: 200, json: PARALLEL_RESULTS })))
      yield* withTool({ PARALLEL_API_KEY: "parallel-key" }, parallelAt(server), (tool) =>
        Effect.gen(function* () {
          const { result } = yield* settle(tool, { query: "parallel web systems" })
          expect(textOf(result)).toBe(
            "## [Sample webpage title](https://www.example.com)\nPublished: 2024-01-15\nSample excerpt 1\nSample excerpt 2\n\n## [Second](https://www.example.org/b)",
          )
          expect(result._tag === "Success" && result.success.structured).toEqual({
            provider: "parallel",
            results: [
              { url: "https://www.example.com", title: "Sample webpage title", published: "2024-01-15", snippet: "Sample excerpt 1\nSample excerpt 2" },
              { url: "https://www.example.org/b", title: "Second", snippet: "" },
            ],
          })
          const [request] = server.requests
          expect(request?.headers["x-api-key"]).toBe("parallel-key")
          expect(JSON.parse(request?.body ?? "")).toEqual({
            search_queries: ["parallel web systems"],
            objective: "parallel web systems",
            advanced_settings: { max_results: WebSearchTool.DEFAULT_RESULTS },
          })
        }))
    }))

  it.live("says so when there are no results", () =>
    Effect.gen(function* () {
      const server = yield* serve(provider("/p/v1/search", () => ({ status: 200, json: { search_id: "s", results: [] } })))
      yield* withTool({ PARALLEL_API_KEY: "k" }, parallelAt(server), (tool) =>
        Effect.map(settle(tool, { query: "zzzz" }), ({ result }) => expect(textOf(result)).toBe("No search results found. Please try a different query.")))
    }))

  const statuses = [
    { status: 429, message: "Web search rate limited (HTTP 429)" },
    { status: 401, message: "Web search authentication failed (HTTP 401)" },
    { status: 403, message: "Web search authentication failed (HTTP 403)" },
    { status: 500, message: "Web search request failed (HTTP 500)" },
    { status: 400, message: "Web search request failed (HTTP 400)" },
  ]
  for (const c of statuses)
    it.live(`maps HTTP ${c.status} to "${c.message}"`, () =>
      Effect.gen(function* () {
        const server = yield* serve(provider("/exa/search", () => ({ status: c.status, json: { error: "nope" } })))
        yield* withTool({ EXA_API_KEY: "k" }, exaAt(server), (tool) => Effect.map(settle(tool, { query: "q" }), ({ result }) => expect(textOf(result)).toBe(c.message)))
      }))

  it.live("follows no redirect, so the API key never leaves the provider's origin", () =>
    Effect.gen(function* () {
      const elsewhere = yield* serve(provider("/search", () => ({ status: 200, json: EXA_RESULTS })))
      const server = yield* serve((_, response) => {
        response.writeHead(307, { location: elsewhere.url("/search") })
        response.end()
      })
      yield* withTool({ EXA_API_KEY: "secret" }, { exa_base_url: server.origin }, (tool) =>
        Effect.gen(function* () {
          expect(textOf((yield* settle(tool, { query: "q" })).result)).toBe("Web search request failed (HTTP 307)")
          expect(server.requests.map((request) => request.headers["x-api-key"])).toEqual(["secret"])
          expect(elsewhere.requests).toEqual([])
        }))
    }))

  it.live("says why when the provider cannot be reached", () =>
    Effect.gen(function* () {
      const port = yield* Effect.scoped(Effect.map(serve(() => undefined), (server) => server.port))
      yield* withTool({ EXA_API_KEY: "k" }, { exa_base_url: `http://127.0.0.1:${port}` }, (tool) =>
        Effect.map(settle(tool, { query: "q" }), ({ result }) => expect(textOf(result)).toBe("Web search request failed: ECONNREFUSED")))
    }))

  it.live("fails readably on an answer that is not the provider's format", () =>
    Effect.gen(function* () {
      const server = yield* serve(provider("/exa/search", () => ({ status: 200, json: { results: [{ title: "no url" }] } })))
      yield* withTool({ EXA_API_KEY: "k" }, exaAt(server), (tool) =>
        Effect.map(settle(tool, { query: "q" }), ({ result }) => expect(textOf(result)).toBe(WebSearch.Messages.invalidResponse("exa"))))
    }))

  it.live("does not search when the person refuses", () =>
    Effect.gen(function* () {
      const server = yield* serve(provider("/exa/search", () => ({ status: 200, json: EXA_RESULTS })))
      yield* withTool({ EXA_API_KEY: "k" }, exaAt(server), (tool) =>
        Effect.gen(function* () {
          const { result } = yield* settle(tool, { query: "q" }, { reply: "reject", message: "not now" })
          expect(textOf(result)).toBe(Permission.Messages.corrected("not now"))
          expect(server.requests).toEqual([])
        }), [{ action: "websearch", resource: "*", effect: "ask" }])
    }))

  it.live("rejects an empty query and a result count outside 1 to 20", () =>
    withTool({ EXA_API_KEY: "k" }, {}, (tool) =>
      Effect.gen(function* () {
        for (const input of [{ query: "" }, { query: "q", numResults: 0 }, { query: "q", numResults: WebSearchTool.MAX_RESULTS + 1 }, { query: "q", numResults: 1.5 }]) {
          const { result, asked } = yield* settle(tool, input)
          expect(textOf(result).startsWith(Tool.Messages.invalidInput(""))).toBe(true)
          expect(asked).toEqual([])
        }
      })))
})

describe("WebSearchTool provider selection", () => {
  const selections: ReadonlyArray<{ readonly name: string; readonly env: Env; readonly settings: object; readonly provider: string | undefined }> = [
    { name: "the first provider whose key is set", env: { PARALLEL_API_KEY: "p", EXA_API_KEY: "e" }, settings: {}, provider: "exa" },
    { name: "Parallel when only its key is set", env: { PARALLEL_API_KEY: "p" }, settings: {}, provider: "parallel" },
    { name: "the configured provider over key order", env: { PARALLEL_API_KEY: "p", EXA_API_KEY: "e" }, settings: { provider: "parallel" }, provider: "parallel" },
    { name: "nothing when the configured provider has no key", env: { PARALLEL_API_KEY: "p" }, settings: { provider: "exa" }, provider: undefined },
    { name: "nothing when no key is set or a key is blank", env: { EXA_API_KEY: " ", OTHER: "x" }, settings: {}, provider: undefined },
  ]
  for (const c of selections)
    it(`selects ${c.name}`, () => {
      const selected = WebSearch.select(c.settings, c.env)
      expect(selected instanceof WebSearch.NotConfiguredError ? undefined : selected.name).toBe(c.provider)
    })

  it("uses the documented base URLs unless config names others", () => {
    expect(WebSearch.select({}, { EXA_API_KEY: "e" })).toEqual({ name: "exa", apiKey: "e", baseUrl: "https://api.exa.ai" })
    expect(WebSearch.select({}, { PARALLEL_API_KEY: "p" })).toEqual({ name: "parallel", apiKey: "p", baseUrl: "https://api.parallel.ai" })
    expect(WebSearch.select({ parallel_base_url: "http://proxy/x//" }, { PARALLEL_API_KEY: "p" })).toMatchObject({ baseUrl: "http://proxy/x" })
  })

  it.live("is left out of the registration, with the reason, when no provider is configured", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      const layer = gateLayer(root)
      const error = yield* WebSearchTool.make.pipe(Effect.flip, Effect.provideService(WebSearchTool.Environment, {}), Effect.provide(layer))
      expect(error).toBeInstanceOf(WebSearchTool.NotConfiguredError)
      expect(error.message).toBe("Web search is not configured: set EXA_API_KEY or PARALLEL_API_KEY")
      expect(yield* WebSearchTool.registration.pipe(Effect.provideService(WebSearchTool.Environment, {}), Effect.provide(layer))).toEqual({})
      const present = yield* WebSearchTool.registration.pipe(Effect.provideService(WebSearchTool.Environment, { EXA_API_KEY: "k" }), Effect.provide(layer))
      expect(Object.keys(present)).toEqual([WebSearchTool.name])
    }))
})
