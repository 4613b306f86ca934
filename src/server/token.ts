/**
 * The server's bearer token: random for each start (32 bytes, base64url), or the person's own from
 * `TOOLGATE_SERVER_TOKEN`. Comparison runs in constant time over SHA-256 digests, so neither the
 * token's length nor a matching prefix shows in the time an answer takes.
 */
export * as ServerToken from "./token.js"

import { hash, randomBytes, timingSafeEqual } from "node:crypto"

/** The environment variable a token is taken from. */
export const ENV = "TOOLGATE_SERVER_TOKEN"

/** Shortest token accepted from the environment: a short one is guessed. */
export const MIN_LENGTH = 16

export const Messages = {
  tooShort: `${ENV} must be at least ${MIN_LENGTH} characters`,
} as const

/**
 * Removes the token's variable from `env`, the server's own process environment: every process
 * the server starts (a bash command, git, ripgrep, an MCP server) inherits that environment, and
 * a tool call that read the token could answer its own asks over HTTP.
 * @example ServerToken.withhold(process.env)
 */
export const withhold = (env: Record<string, string | undefined>): void => {
  delete env[ENV]
}

/** `env` without the token's variable: what the server hands on (config lookups, model keys). */
export const without = (env: Readonly<Record<string, string | undefined>>): Readonly<Record<string, string | undefined>> => {
  const { [ENV]: _token, ...rest } = env
  return rest
}

/** A new random token. */
export const generate = (): string => randomBytes(32).toString("base64url")

/** The token from the environment, `undefined` when unset, or the message saying why it cannot be used. */
export const fromEnvironment = (env: Readonly<Record<string, string | undefined>>): { readonly token: string } | { readonly error: string } | undefined => {
  const value = env[ENV]
  if (value === undefined || value === "") return undefined
  return value.length < MIN_LENGTH ? { error: Messages.tooShort } : { token: value }
}

// One-shot `hash`: a `createHash` object per request cost a few µs more (docs/benchmarks.md, serve).
const digest = (text: string) => hash("sha256", text, "buffer")

/** Whether `given` is `token`, in time that does not depend on where they differ. */
export const equals = (given: string, token: string): boolean => timingSafeEqual(digest(given), digest(token))

/** `equals` against one token whose digest is taken once (a server checks every request). */
export const matcher = (token: string): ((given: string) => boolean) => {
  const expected = digest(token)
  return (given) => timingSafeEqual(digest(given), expected)
}
