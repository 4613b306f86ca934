/**
 * `webfetch` (08): fetch one http(s) URL and return it as markdown, visible text or raw HTML.
 * The scheme is checked before anything else. Every hop, the first and each redirect, is judged
 * by WebGate before it connects: `webfetch [url]` on the canonical URL (WebUrl: what is fetched,
 * not how it is spelled, without credentials or fragment) and on the other forms it arrives as
 * (its resolved addresses, the loopback `0.0.0.0` and `localhost` reach), strictest winning;
 * "always" saves `<scheme>://<host>/*` of the canonical URL. The connection goes only to the
 * addresses judged. Limits, redirects and credentials are WebHttp's; bytes to text is
 * WebContent's; HTML conversion is WebHtml's, run in a worker by WebConvert within what is left
 * of the timeout. The model reads the output text only; the rest is structured output.
 * `requests` lists what the first hop is judged by before any lookup (`WebGate.near`); the
 * addresses its host resolves to and every redirect are judged only while fetching.
 */
export * as WebFetchTool from "./webfetch.js"

import { Duration, Effect, Schema } from "effect"
import { Permission } from "../../permission/permission.js"
import { Tool } from "../tool.js"
import { WebContent } from "./web/content.js"
import { WebConvert } from "./web/convert.js"
import { WebDns } from "./web/dns.js"
import { WebGate } from "./web/gate.js"
import { WebHttp } from "./web/http.js"
import { Tracing } from "../../tracing.js"

export const name = "webfetch"

export const MAX_BYTES = 5 * 1024 * 1024
export const DEFAULT_TIMEOUT_SECONDS = 30
export const MAX_TIMEOUT_SECONDS = 120
export const MAX_REDIRECTS = 10
export const FORMATS = ["markdown", "text", "html"] as const

export const DESCRIPTION = `Fetches a web page or other text resource over http(s) and returns its content.

- url: the full URL, starting with http:// or https://.
- format: "markdown" (default) converts HTML to markdown; "text" returns only the visible text; "html" returns the HTML as it is. Other text (JSON, XML, plain text) is returned as it is in every format.
- timeout: seconds to wait, default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS}.
- Redirects are followed (at most ${MAX_REDIRECTS}). Responses over ${MAX_BYTES / 1024 / 1024} MiB, images and other binary files are refused.
- Use it to read documentation or pages the user points to; to find pages, use a web search instead.`

export const Messages = {
  scheme: "URL must use http:// or https://",
  invalidUrl: (url: string) => `Invalid URL: ${url}`,
  image: (mime: string) => `Unsupported fetched image content type: ${mime}`,
  file: (mime: string) => `Unsupported fetched file content type: ${mime}`,
  wildcardHost: (host: string) => `URL host must not contain * or ?: ${host}`,
} as const

export const Input = Schema.Struct({
  url: Schema.String.annotate({ description: "The URL to fetch, starting with http:// or https://" }),
  format: Schema.optional(Schema.Literals(FORMATS).annotate({ description: 'What to return for an HTML page: "markdown" (default), "text" or "html"' })),
  timeout: Schema.optional(
    Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(MAX_TIMEOUT_SECONDS)).annotate({
      description: `Seconds to wait for the whole response; default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS}`,
    }),
  ),
}).annotate({ identifier: "WebFetchTool.Input" })
export type Input = typeof Input.Type

/** `contentType` is the media type without parameters ("" when the server sent none). */
export const Output = Schema.Struct({
  url: Schema.String,
  finalUrl: Schema.String,
  contentType: Schema.String,
  format: Schema.Literals(FORMATS),
  output: Schema.String,
}).annotate({ identifier: "WebFetchTool.Output" })
export type Output = typeof Output.Type

const fail = (message: string) => new Tool.Failure({ message })

const SCHEME = /^([a-z][a-z0-9+.-]*):/i

/** The URL, if it has an http(s) scheme and parses; checked before any permission or network use. */
export const parse = (input: string): URL | Tool.Failure => {
  const scheme = SCHEME.exec(input.trim())?.[1]?.toLowerCase()
  if (scheme !== "http" && scheme !== "https") return fail(Messages.scheme)
  if (!URL.canParse(input)) return fail(Messages.invalidUrl(input))
  const url = new URL(input)
  // The host goes into the save pattern: a `*` there would approve every host (`http://*/*`).
  return url.host.includes("*") || url.host.includes("?") ? fail(Messages.wildcardHost(url.host)) : url
}

const check = (head: WebHttp.Head): Tool.Failure | undefined => {
  const type = WebContent.mime(head.contentType)
  const kind = WebContent.kind(type)
  if (kind === "image") return fail(Messages.image(type))
  if (kind === "file") return fail(Messages.file(type))
  return undefined
}

/** HTML to the requested format in what is left of the timeout (the conversion runs in a worker that a timeout stops). */
const convert = (html: string, format: "markdown" | "text", timeoutSeconds: number, elapsedMillis: number) =>
  WebConvert.convert(html, format).pipe(
    Effect.mapError((error) => fail(error.message)),
    Effect.timeoutOrElse({
      duration: Duration.millis(Math.max(0, timeoutSeconds * 1000 - elapsedMillis)),
      orElse: () => Effect.fail(fail(WebHttp.Messages.timeout(timeoutSeconds))),
    }),
  )

export interface Options {
  /** How hosts are looked up (default `WebDns.lookup`, the system resolver). */
  readonly lookup?: WebDns.Lookup
}

/**
 * The `webfetch` tool, with the permission gate captured.
 * @example const webfetch = yield* WebFetchTool.makeWith({ lookup }); yield* registry.register({ [WebFetchTool.name]: webfetch })
 */
export const makeWith = (options: Options = {}): Effect.Effect<Tool.Value<Input, Output>, never, Permission.Service> =>
  Effect.gen(function* () {
    const permission = yield* Permission.Service

    const execute = Tracing.fn("WebFetchTool.execute")(function* (input: Input, context: Tool.Context) {
      const url = parse(input.url)
      if (url instanceof Tool.Failure) return yield* url
      const format = input.format ?? "markdown"
      const gate = WebGate.make(permission, context, name)
      // A redirect's host is checked as the first URL's was: it becomes a save pattern.
      const admit = (hop: WebHttp.Hop) => {
        const checked = parse(hop.url.href)
        return checked instanceof Tool.Failure ? Effect.fail(checked) : gate.admit(hop)
      }
      const timeoutSeconds = input.timeout ?? DEFAULT_TIMEOUT_SECONDS
      const response = yield* WebHttp.fetch({
        url,
        headers: { "user-agent": WebHttp.USER_AGENT, accept: WebContent.ACCEPT[format] },
        timeoutSeconds,
        maxBytes: MAX_BYTES,
        maxRedirects: MAX_REDIRECTS,
        admit,
        ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
        check,
      }).pipe(Effect.mapError((error) => (WebHttp.isError(error) ? fail(error.message) : error)))
      const contentType = WebContent.mime(response.contentType)
      const text = WebContent.decode(response.body, response.contentType)
      const output = WebContent.isHtml(contentType) && format !== "html" ? yield* convert(text, format, timeoutSeconds, response.elapsedMillis) : text
      return { url: WebHttp.splitCredentials(url).url.href, finalUrl: response.url.href, contentType, format, output }
    })

    /** What the first hop is judged by before its host is looked up: the gate's own `near`. */
    const requests = (input: Input) => {
      const url = parse(input.url)
      if (url instanceof Tool.Failure) return Effect.fail(url)
      const known = WebGate.near(url, name)
      return Effect.succeed(known === undefined ? [] : [known.request])
    }

    return Tool.make({ description: DESCRIPTION, input: Input, output: Output, execute, requests, toModelOutput: ({ output }) => [{ type: "text", text: output.output }] })
  })

/**
 * The `webfetch` tool on the system resolver.
 * @example const webfetch = yield* WebFetchTool.make; yield* registry.register({ [WebFetchTool.name]: webfetch })
 */
export const make: Effect.Effect<Tool.Value<Input, Output>, never, Permission.Service> = makeWith()
