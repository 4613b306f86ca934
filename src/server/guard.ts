/**
 * Who may talk to the server (issue 17, item 2), as one pure check every request passes before
 * any route: a `Host` that is not the bound address is refused (DNS rebinding: a page of
 * evil.example resolving to 127.0.0.1 still sends `Host: evil.example`), and so is a request whose
 * target names another host (`GET http://evil.example/… HTTP/1.1`: HTTP has the target's authority
 * override `Host`, and the app's URL is built from it), so is an `Origin` that is
 * present and not the server's own (a browser page of another site), both with 403; every path but
 * `/health` and the console's files (which hold no data) then needs `Authorization: Bearer <token>` (401). No CORS headers are ever sent, so a
 * browser never lets another origin read an answer.
 */
export * as ServerGuard from "./guard.js"

import { ServerConsole } from "./console.js"
import { ServerToken } from "./token.js"

/** Paths answered without a token: a liveness probe and the console's files, which tell nothing. */
export const OPEN_PATHS: ReadonlyArray<string> = ["/health", ...ServerConsole.PATHS]

export const Messages = {
  host: (host: string) => `Forbidden: the Host header ${host === "" ? "is missing" : `${host} is not this server's address`}`,
  target: (authority: string) => `Forbidden: the request's target names ${authority}, not this server's address`,
  origin: (origin: string) => `Forbidden: requests from origin ${origin} are not accepted`,
  unauthorized: "Unauthorized: send Authorization: Bearer <token> (the token toolgate serve printed, or TOOLGATE_SERVER_TOKEN)",
} as const

export interface Options {
  readonly token: string
  /** The `Host` values that name this server (`127.0.0.1:4096`, `localhost:4096`, …), lower case. */
  readonly hosts: ReadonlySet<string>
}

export interface Refusal {
  readonly status: 401 | 403
  readonly tag: "UnauthorizedError" | "ForbiddenError"
  readonly message: string
}

export interface Request {
  readonly path: string
  /** The URL the app reads (`c.req.url`): built from `Host`, or taken from an absolute-form target. */
  readonly url: string
  readonly header: (name: string) => string | undefined
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"]

/** Whether a bind address is loopback. */
export const isLoopback = (hostname: string): boolean => ["127.0.0.1", "localhost", "::1", "[::1]"].includes(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname)

/** The Host values of a server bound to `hostname` on `port`: every loopback spelling for a loopback bind. */
export const hostsFor = (hostname: string, port: number): ReadonlySet<string> => {
  const bare = hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname
  const names = isLoopback(hostname) ? [...new Set([bare, ...LOOPBACK_NAMES])] : [bare]
  return new Set(names.map((name) => `${name}:${port}`.toLowerCase()))
}

const bearer = (header: string | undefined): string | undefined => {
  const match = /^Bearer ([^\s]+)$/i.exec(header ?? "")
  return match?.[1]
}

/**
 * The authority of an absolute URL, lower case (`http://127.0.0.1:4096/api` → `127.0.0.1:4096`).
 * @example ServerGuard.authorityOf("http://Evil.example/api/tool?x=1") // "evil.example"
 */
export const authorityOf = (url: string): string => {
  const start = url.indexOf("://")
  const rest = start < 0 ? "" : url.slice(start + 3)
  const end = rest.search(/[/?#]/)
  return (end < 0 ? rest : rest.slice(0, end)).toLowerCase()
}

/** `http://` and one of the server's Host values, exactly. */
const ownOrigin = (origin: string, hosts: ReadonlySet<string>) => {
  const lower = origin.toLowerCase()
  return lower.startsWith("http://") && hosts.has(lower.slice("http://".length))
}

/** The last token's matcher: a server checks every request against the same token. */
const memo: { token?: string; match?: (given: string) => boolean } = {}
const matches = (token: string, given: string): boolean => {
  if (memo.token !== token || memo.match === undefined) Object.assign(memo, { token, match: ServerToken.matcher(token) })
  return (memo.match as (given: string) => boolean)(given)
}

/**
 * Why a request is refused, or `undefined` when it may go on.
 * @example ServerGuard.check({ path: "/api/tool", url: "http://127.0.0.1:4096/api/tool", header: (name) => headers[name] }, { token, hosts: ServerGuard.hostsFor("127.0.0.1", 4096) })
 */
export const check = (request: Request, options: Options): Refusal | undefined => {
  const host = (request.header("host") ?? "").toLowerCase()
  if (!options.hosts.has(host)) return { status: 403, tag: "ForbiddenError", message: Messages.host(host) }
  const authority = authorityOf(request.url)
  if (!options.hosts.has(authority)) return { status: 403, tag: "ForbiddenError", message: Messages.target(authority) }
  const origin = request.header("origin")
  // A browser sends its page's origin; only a page this server served may call it.
  if (origin !== undefined && !ownOrigin(origin, options.hosts)) return { status: 403, tag: "ForbiddenError", message: Messages.origin(origin) }
  if (OPEN_PATHS.includes(request.path)) return undefined
  const given = bearer(request.header("authorization"))
  if (given === undefined || !matches(options.token, given)) return { status: 401, tag: "UnauthorizedError", message: Messages.unauthorized }
  return undefined
}
