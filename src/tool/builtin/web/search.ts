/**
 * Web search through one provider, Exa or Parallel (formats in exa.ts and parallel.ts). The
 * provider is config `websearch.provider`, else the first whose API key is set (EXA_API_KEY,
 * then PARALLEL_API_KEY); a provider named in config without its key means none. Keys come from
 * the environment given (never from config), base URLs from config (trusted files only, see
 * config/validate.ts). The key is sent only to the provider's origin, with no redirects
 * followed. HTTP statuses become the errors the model reads: 429 rate limited, 401/403
 * authentication failed, any other non-2xx request failed.
 */
export * as WebSearch from "./search.js"

import { Effect, Schema } from "effect"
import type { ConfigValidate } from "../../../config/validate.js"
import { ExaSearch } from "./exa.js"
import { ParallelSearch } from "./parallel.js"
import { WebHttp } from "./http.js"
import { Tracing } from "../../../tracing.js"

export type ProviderName = ConfigValidate.WebSearchProvider

export const TIMEOUT_SECONDS = 30
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024
/** Which variable holds each provider's key, in the order providers are tried. */
export const API_KEYS: ReadonlyArray<readonly [ProviderName, string]> = [
  ["exa", "EXA_API_KEY"],
  ["parallel", "PARALLEL_API_KEY"],
]

export const Messages = {
  notConfigured: "Web search is not configured: set EXA_API_KEY or PARALLEL_API_KEY",
  rateLimited: (status: number) => `Web search rate limited (HTTP ${status})`,
  authentication: (status: number) => `Web search authentication failed (HTTP ${status})`,
  status: (status: number) => `Web search request failed (HTTP ${status})`,
  failed: (detail: string) => `Web search request failed: ${detail}`,
  invalidResponse: (provider: ProviderName) => `Web search failed: ${provider} answered in an unexpected format`,
  noResults: "No search results found. Please try a different query.",
} as const

/** One result, whatever the provider. */
export interface Hit {
  readonly url: string
  readonly title: string | undefined
  readonly published: string | undefined
  readonly snippet: string
}

export interface Selected {
  readonly name: ProviderName
  readonly apiKey: string
  /** Without a trailing slash. */
  readonly baseUrl: string
}

export class NotConfiguredError extends Schema.TaggedError<NotConfiguredError>()("WebSearch.NotConfiguredError", {}) {
  override get message() {
    return Messages.notConfigured
  }
}

export class StatusError extends Schema.TaggedError<StatusError>()("WebSearch.StatusError", { status: Schema.Number }) {
  override get message() {
    if (this.status === 429) return Messages.rateLimited(this.status)
    if (this.status === 401 || this.status === 403) return Messages.authentication(this.status)
    return Messages.status(this.status)
  }
}

export class RequestError extends Schema.TaggedError<RequestError>()("WebSearch.RequestError", { detail: Schema.String }) {
  override get message() {
    return Messages.failed(this.detail)
  }
}

export class InvalidResponseError extends Schema.TaggedError<InvalidResponseError>()("WebSearch.InvalidResponseError", {
  provider: Schema.Literals(["exa", "parallel"]),
}) {
  override get message() {
    return Messages.invalidResponse(this.provider)
  }
}

export type Error = StatusError | RequestError | InvalidResponseError

const FORMATS = {
  exa: ExaSearch,
  parallel: ParallelSearch,
} as const

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === "" ? undefined : value.trim())

/** The provider to use, or NotConfiguredError. */
export const select = (settings: ConfigValidate.WebSearch, env: Readonly<Record<string, string | undefined>>): Selected | NotConfiguredError => {
  const keys = new Map(API_KEYS.flatMap(([name, variable]) => {
    const key = nonEmpty(env[variable])
    return key === undefined ? [] : [[name, key] as const]
  }))
  const name = settings.provider ?? API_KEYS.map(([candidate]) => candidate).find((candidate) => keys.has(candidate))
  const apiKey = name === undefined ? undefined : keys.get(name)
  if (name === undefined || apiKey === undefined) return new NotConfiguredError()
  const configured = name === "exa" ? settings.exa_base_url : settings.parallel_base_url
  return { name, apiKey, baseUrl: (configured ?? FORMATS[name].DEFAULT_BASE_URL).replace(/\/+$/, "") }
}

const asSearchError = (error: WebHttp.Error): Error => {
  if (error._tag === "WebHttp.StatusError") return new StatusError({ status: error.status })
  return new RequestError({ detail: error._tag === "WebHttp.NetworkError" ? error.detail : error.message })
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    // JSON.parse reports malformed input only by throwing; the caller turns undefined into InvalidResponseError.
    return undefined
  }
}

/**
 * Up to `numResults` hits for `query` from the selected provider.
 * @example yield* WebSearch.search(selected, "effect schema", 8)
 */
export const search = Tracing.fn("WebSearch.search")(function* (selected: Selected, query: string, numResults: number) {
  const format = FORMATS[selected.name]
  const response = yield* WebHttp.fetch({
    url: new URL(`${selected.baseUrl}${format.PATH}`),
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "user-agent": WebHttp.USER_AGENT },
    originHeaders: { [format.API_KEY_HEADER]: selected.apiKey },
    body: JSON.stringify(format.body(query, numResults)),
    timeoutSeconds: TIMEOUT_SECONDS,
    maxBytes: MAX_RESPONSE_BYTES,
    maxRedirects: 0,
  }).pipe(Effect.mapError(asSearchError))
  const hits = format.parse(parseJson(response.body.toString("utf8")))
  if (hits === undefined) return yield* new InvalidResponseError({ provider: selected.name })
  return hits.slice(0, numResults)
})

/** One hit as the model reads it: a linked heading, the date when known, then the snippet. */
const renderHit = (hit: Hit) =>
  [`## [${(hit.title ?? hit.url).replace(/\s+/g, " ")}](${hit.url})`, ...(hit.published === undefined ? [] : [`Published: ${hit.published}`]), ...(hit.snippet === "" ? [] : [hit.snippet])].join("\n")

/** Every hit, separated by a blank line; none → `Messages.noResults`. */
export const render = (hits: ReadonlyArray<Hit>): string => (hits.length === 0 ? Messages.noResults : hits.map(renderHit).join("\n\n"))
