/**
 * Parallel's search API as documented (https://docs.parallel.ai/api-reference/search and
 * /search/advanced-search-settings): `POST https://api.parallel.ai/v1/search` with the key in
 * `x-api-key` and a JSON body `{ search_queries: [..], objective?, advanced_settings: { max_results } }`
 * (`search_queries` is required; the older `/v1beta/search` is legacy there); the answer is
 * `{ search_id, results: [{ url, title, publish_date?, excerpts: [..] }] }`. The query is sent as
 * both the one keyword query and the objective. A hit's snippet is its excerpts, one per line.
 */
export * as ParallelSearch from "./parallel.js"

import { Option, Schema } from "effect"
import { HitFields } from "./hit-fields.js"
import type { WebSearch } from "./search.js"

export const DEFAULT_BASE_URL = "https://api.parallel.ai"
export const PATH = "/v1/search"
export const API_KEY_HEADER = "x-api-key"

export const body = (query: string, numResults: number) => ({ search_queries: [query], objective: query, advanced_settings: { max_results: numResults } })

const text = HitFields.optionalText

export const Response = Schema.Struct({
  results: Schema.Array(
    Schema.Struct({
      url: Schema.String,
      title: text,
      publish_date: text,
      excerpts: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
    }),
  ),
}).annotate({ identifier: "ParallelSearch.Response" })
export type Response = typeof Response.Type

export const hits = (response: Response): ReadonlyArray<WebSearch.Hit> =>
  response.results.map((result) => ({
    url: result.url,
    title: HitFields.present(result.title),
    published: HitFields.present(result.publish_date),
    snippet: HitFields.lines(result.excerpts),
  }))

const decode = Schema.decodeUnknownOption(Response)

/** The hits of a parsed JSON answer, or undefined when it is not in this provider's format. */
export const parse = (json: unknown): ReadonlyArray<WebSearch.Hit> | undefined => Option.getOrUndefined(Option.map(decode(json), hits))
