/**
 * Exa's search API as documented (https://exa.ai/docs/reference/search, "Search API guide for
 * coding agents"): `POST https://api.exa.ai/search` with the key in `x-api-key` and a JSON body
 * `{ query, type, numResults, contents: { highlights: true } }`; the answer is
 * `{ requestId, results: [{ title, url, publishedDate, author, text?, highlights?, summary? }] }`.
 * A hit's snippet is its highlights (key sentences, one per line), else its summary, else its text.
 */
export * as ExaSearch from "./exa.js"

import { Option, Schema } from "effect"
import { HitFields } from "./hit-fields.js"
import type { WebSearch } from "./search.js"

export const DEFAULT_BASE_URL = "https://api.exa.ai"
export const PATH = "/search"
export const API_KEY_HEADER = "x-api-key"

/** The request body for `numResults` hits on `query`, contents as highlights. */
export const body = (query: string, numResults: number) => ({ query, type: "auto", numResults, contents: { highlights: true } })

const text = HitFields.optionalText

export const Response = Schema.Struct({
  results: Schema.Array(
    Schema.Struct({
      url: Schema.String,
      title: text,
      publishedDate: text,
      text,
      summary: text,
      highlights: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
    }),
  ),
}).annotate({ identifier: "ExaSearch.Response" })
export type Response = typeof Response.Type

export const hits = (response: Response): ReadonlyArray<WebSearch.Hit> =>
  response.results.map((result) => ({
    url: result.url,
    title: HitFields.present(result.title),
    published: HitFields.present(result.publishedDate),
    snippet: HitFields.present(HitFields.lines(result.highlights)) ?? HitFields.present(result.summary) ?? HitFields.present(result.text) ?? "",
  }))

const decode = Schema.decodeUnknownOption(Response)

/** The hits of a parsed JSON answer, or undefined when it is not in this provider's format. */
export const parse = (json: unknown): ReadonlyArray<WebSearch.Hit> | undefined => Option.getOrUndefined(Option.map(decode(json), hits))
