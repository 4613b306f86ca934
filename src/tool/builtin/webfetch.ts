/**
 * `webfetch` (08): fetch one http(s) URL and return it as markdown, visible text or raw HTML.
 * The scheme is checked before anything else; then `webfetch [url]` is asked (save
 * `<scheme>://<host>/*`). The resource is the URL without credentials, normalised by the URL
 * parser (lowercase scheme and host, default port dropped), so `user@host` or `HOST` cannot slip
 * past a rule about `host`. A redirect to an origin not yet approved in this call is asked the
 * same way before it is followed, so a redirector cannot lead around a configured deny.
 * Limits, redirects and credentials are WebHttp's; bytes to text is WebContent's; HTML
 * conversion is WebHtml's, run in a worker by WebConvert within what is left of the timeout.
 * The model reads the output text only; the rest is structured output.
 */
export * as WebFetchTool from "./webfetch.js"

import { Duration, Effect, Schema } from "effect"
import { Permission } from "../../permission/permission.js"
import { Tool } from "../tool.js"
import { WebContent } from "./web/content.js"
import { WebConvert } from "./web/convert.js"
import { WebHttp } from "./web/http.js"

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

/** The URL as the permission gate sees it: parsed, http(s), without credentials. */
export const resource = (url: URL): string => WebHttp.splitCredentials(url).url.href

/** What "always" saves for a URL: everything on its scheme and host (with a non-default port). */
export const savePattern = (url: URL): string => `${url.protocol}//${url.host}/*`

const fail = (message: string) => new Tool.Failure({ message })

const sameRule = (a: Permission.Sourced, b: Permission.Sourced | undefined) =>
  b !== undefined && a.action === b.action && a.resource === b.resource && a.effect === b.effect && JSON.stringify(a.source) === JSON.stringify(b.source)

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

/**
 * The `webfetch` tool, with the permission gate captured.
 * @example const webfetch = yield* WebFetchTool.make; yield* registry.register({ [WebFetchTool.name]: webfetch })
 */
export const make: Effect.Effect<Tool.Value<Input, Output>, never, Permission.Service> = Effect.gen(function* () {
  const permission = yield* Permission.Service
  /** The rule that decides `url` now, without asking anyone. */
  const decidingRule = (context: Tool.Context, url: URL) =>
    Effect.map(permission.decide({ sessionID: context.sessionID, action: name, resources: [resource(url)] }), (decision) => decision.matched[0]?.rule)
  const approve = (context: Tool.Context, url: URL) => Tool.ask(permission, context, { action: name, resources: [resource(url)], save: [savePattern(url)] })

  const execute = Effect.fn("WebFetchTool.execute")(function* (input: Input, context: Tool.Context) {
    const url = parse(input.url)
    if (url instanceof Tool.Failure) return yield* url
    const format = input.format ?? "markdown"
    const first = yield* decidingRule(context, url)
    yield* approve(context, url)
    const approved = new Set([url.origin])
    /**
     * Every hop is judged: allowed by the rules, it goes; otherwise a hop to an origin approved
     * in this call is covered only when the same rule decided it as the first URL (a redirect
     * must not lead around `…/admin/* deny` or a path's own ask); else the person is asked.
     */
    const onRedirect = (to: URL) =>
      Effect.gen(function* () {
        const host = parse(to.href)
        if (host instanceof Tool.Failure) return yield* host
        const rule = yield* decidingRule(context, to)
        if (rule?.effect === "allow") return
        if (approved.has(to.origin) && rule !== undefined && rule.effect === "ask" && sameRule(rule, first)) return
        yield* approve(context, to)
        approved.add(to.origin)
      })
    const timeoutSeconds = input.timeout ?? DEFAULT_TIMEOUT_SECONDS
    const response = yield* WebHttp.fetch({
      url,
      headers: { "user-agent": WebHttp.USER_AGENT, accept: WebContent.ACCEPT[format] },
      timeoutSeconds,
      maxBytes: MAX_BYTES,
      maxRedirects: MAX_REDIRECTS,
      onRedirect,
      check,
    }).pipe(Effect.mapError((error) => (WebHttp.isError(error) ? fail(error.message) : error)))
    const contentType = WebContent.mime(response.contentType)
    const text = WebContent.decode(response.body, response.contentType)
    const output = WebContent.isHtml(contentType) && format !== "html" ? yield* convert(text, format, timeoutSeconds, response.elapsedMillis) : text
    return { url: resource(url), finalUrl: response.url.href, contentType, format, output }
  })

  return Tool.make({ description: DESCRIPTION, input: Input, output: Output, execute, toModelOutput: ({ output }) => [{ type: "text", text: output.output }] })
})
