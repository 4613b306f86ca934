/**
 * One HTTP exchange with the limits a tool needs. Redirects are followed here, so they can be
 * counted and every hop seen: before each hop (the first too) the host is looked up once and
 * `admit` judges the hop and chooses the addresses it may use; the connection goes only there
 * (WebTransport pins its lookup), never to a second answer of the resolver. The origin's headers
 * (Basic credentials taken from the URL, API keys) go only to hops on the origin the request
 * started on, and never again once a hop has left it; credentials a server puts in a Location are
 * dropped, never used. The body is counted as it streams and the stream is cancelled once it
 * passes `maxBytes`; a Content-Length over it fails before reading. The timeout covers network
 * time only (lookups, every hop and the body), not time spent in `admit` (an approval). Each hop
 * owns an AbortController that is aborted when the hop ends, whatever the exit.
 */
export * as WebHttp from "./http.js"

import { Clock, Duration, Effect, Schema } from "effect"
import type { WebAddress } from "./address.js"
import { WebDns } from "./dns.js"
import { Version } from "../../../version.js"
import { WebTransport } from "./transport.js"

/** Sent with every request. */
export const USER_AGENT = `toolgate/${Version.current}`

export const Messages = {
  timeout: (seconds: number) => `Request timed out after ${seconds} seconds`,
  tooLarge: (limit: number) => `Response too large (exceeds ${limit} byte limit)`,
  status: (status: number) => `Request failed with status ${status}`,
  tooManyRedirects: (limit: number) => `Too many redirects (more than ${limit})`,
  badRedirect: (location: string) => `Redirected to an unsupported URL: ${location}`,
  network: (detail: string) => `Request failed: ${detail}`,
} as const

export class TimeoutError extends Schema.TaggedError<TimeoutError>()("WebHttp.TimeoutError", { seconds: Schema.Number }) {
  override get message() {
    return Messages.timeout(this.seconds)
  }
}

export class TooLargeError extends Schema.TaggedError<TooLargeError>()("WebHttp.TooLargeError", { limit: Schema.Number }) {
  override get message() {
    return Messages.tooLarge(this.limit)
  }
}

export class StatusError extends Schema.TaggedError<StatusError>()("WebHttp.StatusError", { status: Schema.Number }) {
  override get message() {
    return Messages.status(this.status)
  }
}

export class TooManyRedirectsError extends Schema.TaggedError<TooManyRedirectsError>()("WebHttp.TooManyRedirectsError", { limit: Schema.Number }) {
  override get message() {
    return Messages.tooManyRedirects(this.limit)
  }
}

export class BadRedirectError extends Schema.TaggedError<BadRedirectError>()("WebHttp.BadRedirectError", { location: Schema.String }) {
  override get message() {
    return Messages.badRedirect(this.location)
  }
}

export class NetworkError extends Schema.TaggedError<NetworkError>()("WebHttp.NetworkError", { detail: Schema.String }) {
  override get message() {
    return Messages.network(this.detail)
  }
}

export type Error = TimeoutError | TooLargeError | StatusError | TooManyRedirectsError | BadRedirectError | NetworkError

const TAGS: ReadonlyArray<Error["_tag"]> = [
  "WebHttp.TimeoutError",
  "WebHttp.TooLargeError",
  "WebHttp.StatusError",
  "WebHttp.TooManyRedirectsError",
  "WebHttp.BadRedirectError",
  "WebHttp.NetworkError",
]

/** Whether a failure is one of this module's (as opposed to a caller's, from `check` or `onRedirect`). */
export const isError = (value: unknown): value is Error => typeof value === "object" && value !== null && TAGS.includes((value as { _tag?: unknown })._tag as Error["_tag"])

/** A hop about to be made, as `admit` sees it. */
export interface Hop {
  /** Without credentials. */
  readonly url: URL
  /** Looks the host up once, within the timeout (an IP host is its own address). */
  readonly resolve: Effect.Effect<ReadonlyArray<WebAddress.Address>, NetworkError | TimeoutError>
}

/** What the final response says about itself before its body is read. */
export interface Head {
  readonly url: URL
  readonly status: number
  readonly contentType: string | null
}

export interface Request<E = never> {
  /** http: or https:; credentials in it become a Basic Authorization header for its origin only. */
  readonly url: URL
  readonly method?: "GET" | "POST"
  /** Sent to every hop. */
  readonly headers?: Readonly<Record<string, string>>
  /** Sent only until the request first leaves the origin it started on (secrets). */
  readonly originHeaders?: Readonly<Record<string, string>>
  readonly body?: string
  readonly timeoutSeconds: number
  readonly maxBytes: number
  /** 0: a redirect fails as a StatusError. */
  readonly maxRedirects: number
  /**
   * Runs before every hop, outside the timeout: fails to stop the request, or returns the
   * addresses the hop may connect to (normally what `hop.resolve` found, after judging them).
   * Without it every hop goes to what `resolve` found.
   */
  readonly admit?: (hop: Hop) => Effect.Effect<ReadonlyArray<WebAddress.Address>, E | Error>
  /** How hosts are looked up (default `WebDns.lookup`). */
  readonly lookup?: WebDns.Lookup
  /** Checks the final response before its body is read; an error stops the request. */
  readonly check?: (head: Head) => E | undefined
}

export interface Response extends Head {
  readonly body: Buffer
  /** Network time charged against the timeout, so a caller can spend what is left. */
  readonly elapsedMillis: number
}

const REDIRECTS: ReadonlyArray<number> = [301, 302, 303, 307, 308]

/** Percent-decoded, or as written when it is not valid percent-encoding (`%ZZ`): never a crash. */
const decoded = (part: string) => {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

/** Credentials of a URL as an Authorization header (RFC 7617), and the URL without them. */
export const splitCredentials = (url: URL): { readonly url: URL; readonly authorization?: string } => {
  if (url.username === "" && url.password === "") return { url }
  const bare = new URL(url.href)
  bare.username = ""
  bare.password = ""
  const pair = `${decoded(url.username)}:${decoded(url.password)}`
  return { url: bare, authorization: `Basic ${Buffer.from(pair, "utf8").toString("base64")}` }
}

export const isHttp = (url: URL) => url.protocol === "http:" || url.protocol === "https:"

/** The reason a request failed, as specific as node tells it (the error's code, e.g. ECONNREFUSED). */
const detail = (error: unknown): string => {
  const code = (error as { code?: unknown }).code
  if (typeof code === "string") return code
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause
  if (typeof cause?.code === "string") return cause.code
  if (typeof cause?.message === "string") return cause.message
  return error instanceof globalThis.Error ? error.message : String(error)
}

/** The whole body, or undefined as soon as it passes `limit` (leaving the loop destroys the stream). */
const readLimited = async (body: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer | undefined> => {
  const chunks: Uint8Array[] = []
  const seen = { bytes: 0 }
  for await (const chunk of body) {
    seen.bytes += chunk.byteLength
    if (seen.bytes > limit) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, seen.bytes)
}

interface Step {
  readonly url: URL
  readonly method: "GET" | "POST"
  readonly body: string | undefined
}

type Outcome = { readonly type: "redirect"; readonly to: URL; readonly status: number } | { readonly type: "response"; readonly response: Omit<Response, "elapsedMillis"> }

/**
 * Fetches `request.url`, following redirects, and returns the final 2xx response with its body.
 * @example yield* WebHttp.fetch({ url: new URL("https://example.com"), timeoutSeconds: 30, maxBytes: 5 * 1024 * 1024, maxRedirects: 10 })
 */
export const fetch = <E = never>(request: Request<E>): Effect.Effect<Response, Error | E> => {
  const start = splitCredentials(request.url)
  const origin = start.url.origin
  const secrets = { ...request.originHeaders, ...(start.authorization === undefined ? {} : { authorization: start.authorization }) }
  const budget = { spentMillis: 0 }
  const chain = { leftOrigin: false }

  /** Runs a network step in what is left of the timeout, and charges the time it took. */
  const timed = <A, E2>(step: Effect.Effect<A, E2>) =>
    Effect.gen(function* () {
      const begin = yield* Clock.currentTimeMillis
      const left = Math.max(0, request.timeoutSeconds * 1000 - budget.spentMillis)
      const result = yield* step.pipe(
        Effect.timeoutOrElse({ duration: Duration.millis(left), orElse: () => Effect.fail(new TimeoutError({ seconds: request.timeoutSeconds })) }),
      )
      budget.spentMillis += (yield* Clock.currentTimeMillis) - begin
      return result
    })

  const lookup = request.lookup ?? WebDns.lookup
  const resolve = (url: URL) =>
    timed(lookup(url.hostname).pipe(Effect.mapError((error) => new NetworkError({ detail: error.code }))))
  const admit = (step: Step) => {
    const hop: Hop = { url: step.url, resolve: resolve(step.url) }
    return request.admit === undefined ? hop.resolve : request.admit(hop)
  }

  const exchange = (step: Step, addresses: ReadonlyArray<WebAddress.Address>): Effect.Effect<Outcome, Error | E> =>
    Effect.scoped(
      Effect.gen(function* () {
        const controller = yield* Effect.acquireRelease(
          Effect.sync(() => new AbortController()),
          (owned) => Effect.sync(() => owned.abort()),
        )
        chain.leftOrigin ||= step.url.origin !== origin
        const headers = { ...request.headers, ...(chain.leftOrigin ? {} : secrets) }
        const response = yield* Effect.tryPromise({
          try: () => WebTransport.send({ url: step.url, method: step.method, headers, addresses, signal: controller.signal, ...(step.body === undefined ? {} : { body: step.body }) }),
          catch: (error) => new NetworkError({ detail: detail(error) }),
        })
        const location = response.header("location")
        if (REDIRECTS.includes(response.status) && location !== null) return { type: "redirect", to: yield* redirectTarget(location, step.url), status: response.status } satisfies Outcome
        if (response.status < 200 || response.status > 299) return yield* new StatusError({ status: response.status })
        const head: Head = { url: step.url, status: response.status, contentType: response.header("content-type") }
        const refused = request.check?.(head)
        if (refused !== undefined) return yield* Effect.fail(refused)
        const length = Number(response.header("content-length") ?? Number.NaN)
        if (Number.isFinite(length) && length > request.maxBytes) return yield* new TooLargeError({ limit: request.maxBytes })
        const body = yield* Effect.tryPromise({ try: () => readLimited(response.body, request.maxBytes), catch: (error) => new NetworkError({ detail: detail(error) }) })
        if (body === undefined) return yield* new TooLargeError({ limit: request.maxBytes })
        return { type: "response", response: { ...head, body } } satisfies Outcome
      }),
    )

  const follow = (step: Step, redirects: number): Effect.Effect<Response, Error | E> =>
    Effect.gen(function* () {
      const addresses = yield* admit(step)
      const outcome = yield* timed(exchange(step, addresses))
      if (outcome.type === "response") return { ...outcome.response, elapsedMillis: budget.spentMillis }
      // A request that follows no redirects fails on one with its status, like any other non-2xx.
      if (request.maxRedirects === 0) return yield* new StatusError({ status: outcome.status })
      if (redirects >= request.maxRedirects) return yield* new TooManyRedirectsError({ limit: request.maxRedirects })
      // 303, and 301/302 after a POST, continue as a GET without a body (Fetch standard, HTTP-redirect fetch).
      const asGet = outcome.status === 303 || (step.method === "POST" && (outcome.status === 301 || outcome.status === 302))
      return yield* follow({ url: outcome.to, method: asGet ? "GET" : step.method, body: asGet ? undefined : step.body }, redirects + 1)
    })

  return follow({ url: start.url, method: request.method ?? "GET", body: request.body }, 0)
}

/** A Location resolved against the hop it came from: http(s) only, and without credentials. */
const redirectTarget = (location: string, base: URL): Effect.Effect<URL, BadRedirectError> => {
  const target = URL.canParse(location, base.href) ? new URL(location, base) : undefined
  if (target === undefined || !isHttp(target)) return Effect.fail(new BadRedirectError({ location }))
  return Effect.succeed(splitCredentials(target).url)
}
