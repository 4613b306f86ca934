/**
 * `websearch` (08): search the web through Exa or Parallel (WebSearch picks the provider and
 * speaks to it). Asks `websearch [query]`, save `*`. The tool exists only when a provider is
 * configured: `make` fails with `WebSearch.NotConfiguredError` otherwise, and `registration`
 * turns that into an empty record, so the catalog simply has no `websearch`. API keys are read
 * from `Environment` (a reference that defaults to `process.env`; the runtime and tests provide
 * their own) when the tool is made, not per call.
 */
export * as WebSearchTool from "./websearch.js"

import { Context, Effect, Schema } from "effect"
import { Config } from "../../config.js"
import { Permission } from "../../permission/permission.js"
import { Tool } from "../tool.js"
import { WebSearch } from "./web/search.js"
import { Tracing } from "../../tracing.js"

export const name = "websearch"

export const DEFAULT_RESULTS = 8
export const MAX_RESULTS = 20

export const DESCRIPTION = `Searches the web and returns the best matching pages, each with its title, URL, publication date when known, and relevant excerpts.

- query: what to search for, in natural language or keywords.
- numResults: how many results to return, 1 to ${MAX_RESULTS} (default ${DEFAULT_RESULTS}).
- Use it for current information, documentation and anything beyond your own knowledge; fetch a result's URL with webfetch to read the whole page.`

export { Messages, NotConfiguredError } from "./web/search.js"

/** The environment the API keys are read from. */
export const Environment = Context.Reference<Readonly<Record<string, string | undefined>>>("@toolgate/WebSearchTool/Environment", {
  defaultValue: () => process.env,
})

export const Input = Schema.Struct({
  query: Schema.String.check(Schema.isMinLength(1)).annotate({ description: "What to search for" }),
  numResults: Schema.optional(
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_RESULTS })).annotate({ description: `How many results to return, 1 to ${MAX_RESULTS}; default ${DEFAULT_RESULTS}` }),
  ),
}).annotate({ identifier: "WebSearchTool.Input" })
export type Input = typeof Input.Type

const Hit = Schema.Struct({ url: Schema.String, title: Schema.optionalKey(Schema.String), published: Schema.optionalKey(Schema.String), snippet: Schema.String })

/** The hits in provider order; the model reads them rendered (see `WebSearch.render`). */
export const Output = Schema.Struct({ provider: Schema.Literals(["exa", "parallel"]), results: Schema.Array(Hit) }).annotate({ identifier: "WebSearchTool.Output" })
export type Output = typeof Output.Type

const fail = (error: WebSearch.Error) => new Tool.Failure({ message: error.message })

/** Drops absent optional fields, so the structured output has no `undefined` values. */
const toOutputHit = (hit: WebSearch.Hit): (typeof Hit)["Type"] => ({
  url: hit.url,
  ...(hit.title === undefined ? {} : { title: hit.title }),
  ...(hit.published === undefined ? {} : { published: hit.published }),
  snippet: hit.snippet,
})

/** What a search asks: `websearch [query]`, saving `*`. */
export const requestsOf = (input: Input): ReadonlyArray<Tool.PermissionRequest> => [{ action: name, resources: [input.query], save: ["*"] }]

const fromOutputHit = (hit: (typeof Hit)["Encoded"]): WebSearch.Hit => ({ url: hit.url, title: hit.title, published: hit.published, snippet: hit.snippet })

/**
 * The `websearch` tool with the permission gate and the selected provider captured.
 * @example const websearch = yield* WebSearchTool.make // fails with NotConfiguredError when no provider is configured
 */
export const make: Effect.Effect<Tool.Value<Input, Output>, WebSearch.NotConfiguredError, Permission.Service | Config.Service> = Effect.gen(function* () {
  const permission = yield* Permission.Service
  const config = yield* Config.Service
  const selected = WebSearch.select(config.websearch, yield* Environment)
  if (selected instanceof WebSearch.NotConfiguredError) return yield* selected

  const execute = Tracing.fn("WebSearchTool.execute")(function* (input: Input, context: Tool.Context) {
    yield* Tool.askAll(permission, context, requestsOf(input))
    const hits = yield* WebSearch.search(selected, input.query, input.numResults ?? DEFAULT_RESULTS).pipe(Effect.mapError(fail))
    return { provider: selected.name, results: hits.map(toOutputHit) }
  })

  return Tool.make({
    description: DESCRIPTION,
    input: Input,
    output: Output,
    execute,
    requests: (input) => Effect.succeed(requestsOf(input)),
    toModelOutput: ({ output }) => [{ type: "text", text: WebSearch.render(output.results.map(fromOutputHit)) }],
  })
})

/**
 * `{ websearch: tool }` when a provider is configured, else `{}`: spread it into a registration.
 * @example yield* tools.register({ ...otherTools, ...(yield* WebSearchTool.registration) })
 */
export const registration: Effect.Effect<Readonly<Record<string, Tool.AnyTool>>, never, Permission.Service | Config.Service> = make.pipe(
  Effect.map((tool): Readonly<Record<string, Tool.AnyTool>> => ({ [name]: tool })),
  Effect.catchTag("WebSearch.NotConfiguredError", () => Effect.succeed({})),
)
