/**
 * Who may talk to the server (issue 17, item 2), as the pure check every request passes: a Host
 * that is not the bound address (DNS rebinding) and an Origin that is present and not the
 * server's own are 403; every path but /health needs the bearer token (401). A loopback bind
 * answers to every loopback spelling.
 */
import { describe, expect, it } from "vitest"
import { ServerGuard } from "../../src/server/guard.js"

const TOKEN = "a-token-of-my-own-choosing"
const OPTIONS: ServerGuard.Options = { token: TOKEN, hosts: ServerGuard.hostsFor("127.0.0.1", 4096) }
const HOST = "127.0.0.1:4096"
const AUTH = `Bearer ${TOKEN}`

const FORBIDDEN_HOST = (host: string): ServerGuard.Refusal => ({ status: 403, tag: "ForbiddenError", message: ServerGuard.Messages.host(host) })
const FORBIDDEN_ORIGIN = (origin: string): ServerGuard.Refusal => ({ status: 403, tag: "ForbiddenError", message: ServerGuard.Messages.origin(origin) })
const UNAUTHORIZED: ServerGuard.Refusal = { status: 401, tag: "UnauthorizedError", message: ServerGuard.Messages.unauthorized }

const check = (path: string, headers: Readonly<Record<string, string>>) =>
  ServerGuard.check({ path, url: `http://${headers.host ?? "127.0.0.1:4096"}${path}`, header: (name) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] }, OPTIONS)

const cases: ReadonlyArray<{ readonly name: string; readonly path?: string; readonly headers: Readonly<Record<string, string>>; readonly expected: ServerGuard.Refusal | undefined }> = [
  { name: "the right token from 127.0.0.1", headers: { host: HOST, authorization: AUTH }, expected: undefined },
  { name: "the right token from localhost", headers: { host: "localhost:4096", authorization: AUTH }, expected: undefined },
  { name: "the right token from [::1]", headers: { host: "[::1]:4096", authorization: AUTH }, expected: undefined },
  { name: "a Host in upper case", headers: { host: "LOCALHOST:4096", authorization: AUTH }, expected: undefined },
  { name: "the scheme as bearer", headers: { host: HOST, authorization: `bearer ${TOKEN}` }, expected: undefined },
  { name: "the scheme as BEARER", headers: { host: HOST, authorization: `BEARER ${TOKEN}` }, expected: undefined },
  { name: "no Authorization", headers: { host: HOST }, expected: UNAUTHORIZED },
  { name: "a wrong token", headers: { host: HOST, authorization: "Bearer not-the-token-at-all" }, expected: UNAUTHORIZED },
  { name: "the token's prefix", headers: { host: HOST, authorization: `Bearer ${TOKEN.slice(0, -1)}` }, expected: UNAUTHORIZED },
  { name: "the token in another case", headers: { host: HOST, authorization: `Bearer ${TOKEN.toUpperCase()}` }, expected: UNAUTHORIZED },
  { name: "the token without its scheme", headers: { host: HOST, authorization: TOKEN }, expected: UNAUTHORIZED },
  { name: "the token as Basic", headers: { host: HOST, authorization: `Basic ${TOKEN}` }, expected: UNAUTHORIZED },
  { name: "the token followed by more", headers: { host: HOST, authorization: `Bearer ${TOKEN} ${TOKEN}` }, expected: UNAUTHORIZED },
  { name: "an empty bearer", headers: { host: HOST, authorization: "Bearer " }, expected: UNAUTHORIZED },
  { name: "a rebinding Host", headers: { host: "evil.example:4096", authorization: AUTH }, expected: FORBIDDEN_HOST("evil.example:4096") },
  { name: "no Host", headers: { authorization: AUTH }, expected: FORBIDDEN_HOST("") },
  { name: "the right host on the wrong port", headers: { host: "127.0.0.1:4097", authorization: AUTH }, expected: FORBIDDEN_HOST("127.0.0.1:4097") },
  { name: "the right host without a port", headers: { host: "127.0.0.1", authorization: AUTH }, expected: FORBIDDEN_HOST("127.0.0.1") },
  { name: "a subdomain that starts like localhost", headers: { host: "localhost.evil.example:4096", authorization: AUTH }, expected: FORBIDDEN_HOST("localhost.evil.example:4096") },
  { name: "the server's own Origin", headers: { host: HOST, origin: "http://127.0.0.1:4096", authorization: AUTH }, expected: undefined },
  { name: "another loopback spelling as Origin", headers: { host: HOST, origin: "http://localhost:4096", authorization: AUTH }, expected: undefined },
  { name: "an Origin of another site", headers: { host: HOST, origin: "https://evil.example", authorization: AUTH }, expected: FORBIDDEN_ORIGIN("https://evil.example") },
  { name: "an https Origin of the same host", headers: { host: HOST, origin: "https://127.0.0.1:4096", authorization: AUTH }, expected: FORBIDDEN_ORIGIN("https://127.0.0.1:4096") },
  { name: "the Origin null (a sandboxed page, a file)", headers: { host: HOST, origin: "null", authorization: AUTH }, expected: FORBIDDEN_ORIGIN("null") },
  { name: "an Origin on another port", headers: { host: HOST, origin: "http://127.0.0.1:4097", authorization: AUTH }, expected: FORBIDDEN_ORIGIN("http://127.0.0.1:4097") },
  { name: "an Origin with a path", headers: { host: HOST, origin: "http://127.0.0.1:4096/x", authorization: AUTH }, expected: FORBIDDEN_ORIGIN("http://127.0.0.1:4096/x") },
  { name: "/health without a token", path: "/health", headers: { host: HOST }, expected: undefined },
  { name: "/health from a rebinding Host", path: "/health", headers: { host: "evil.example:4096" }, expected: FORBIDDEN_HOST("evil.example:4096") },
  { name: "/health from another site", path: "/health", headers: { host: HOST, origin: "https://evil.example" }, expected: FORBIDDEN_ORIGIN("https://evil.example") },
  { name: "a path that only starts like /health", path: "/healthz", headers: { host: HOST }, expected: UNAUTHORIZED },
  { name: "a forged Origin with the right token", headers: { host: "evil.example:4096", origin: "http://evil.example:4096", authorization: AUTH }, expected: FORBIDDEN_HOST("evil.example:4096") },
]

describe("ServerGuard", () => {
  for (const c of cases)
    it(`${c.expected === undefined ? "lets through" : `refuses with ${c.expected.status}`} ${c.name}`, () => {
      expect(check(c.path ?? "/api/tool", c.headers)).toEqual(c.expected)
    })

  const targets: ReadonlyArray<readonly [url: string, expected: ServerGuard.Refusal | undefined]> = [
    ["http://127.0.0.1:4096/api/tool", undefined],
    ["http://localhost:4096/api/tool?directory=x", undefined],
    ["http://evil.example/api/tool", { status: 403, tag: "ForbiddenError", message: ServerGuard.Messages.target("evil.example") }],
    ["http://evil.example:4096/api/tool", { status: 403, tag: "ForbiddenError", message: ServerGuard.Messages.target("evil.example:4096") }],
    ["http://127.0.0.1/api/tool", { status: 403, tag: "ForbiddenError", message: ServerGuard.Messages.target("127.0.0.1") }],
    ["https://127.0.0.1:4097/health", { status: 403, tag: "ForbiddenError", message: ServerGuard.Messages.target("127.0.0.1:4097") }],
  ]
  for (const [url, expected] of targets)
    it(`${expected === undefined ? "lets through" : "refuses"} a request whose target is ${url} under the right Host`, () => {
      const refusal = ServerGuard.check({ path: new URL(url).pathname, url, header: (name) => ({ host: HOST, authorization: AUTH })[name] }, OPTIONS)
      expect(refusal).toEqual(expected)
    })

  it("says why, in words a person reads", () => {
    expect(ServerGuard.Messages.target("evil.example")).toBe("Forbidden: the request's target names evil.example, not this server's address")
    expect(ServerGuard.Messages.host("evil.example:4096")).toBe("Forbidden: the Host header evil.example:4096 is not this server's address")
    expect(ServerGuard.Messages.host("")).toBe("Forbidden: the Host header is missing")
    expect(ServerGuard.Messages.origin("null")).toBe("Forbidden: requests from origin null are not accepted")
  })

  const binds: ReadonlyArray<readonly [hostname: string, hosts: ReadonlyArray<string>]> = [
    ["127.0.0.1", ["127.0.0.1:4096", "localhost:4096", "[::1]:4096"]],
    ["localhost", ["localhost:4096", "127.0.0.1:4096", "[::1]:4096"]],
    ["::1", ["[::1]:4096", "127.0.0.1:4096", "localhost:4096"]],
    ["127.0.0.2", ["127.0.0.2:4096", "127.0.0.1:4096", "localhost:4096", "[::1]:4096"]],
    ["192.168.1.5", ["192.168.1.5:4096"]],
    ["fe80::1", ["[fe80::1]:4096"]],
  ]
  for (const [hostname, hosts] of binds)
    it(`answers a bind to ${hostname} at ${hosts.join(", ")}`, () => {
      expect([...ServerGuard.hostsFor(hostname, 4096)].sort()).toEqual([...hosts].sort())
    })

  const loopback: ReadonlyArray<readonly [string, boolean]> = [
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["localhost", true],
    ["::1", true],
    ["[::1]", true],
    ["0.0.0.0", false],
    ["::", false],
    ["10.0.0.1", false],
    ["127.0.0.1.evil.example", false],
    ["localhost.evil.example", false],
  ]
  for (const [hostname, expected] of loopback)
    it(`tells ${hostname} is ${expected ? "" : "not "}loopback`, () => {
      expect(ServerGuard.isLoopback(hostname)).toBe(expected)
    })
})
