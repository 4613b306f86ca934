/**
 * The web console's files (issue 18), built into `dist/console/` by `npm run build` and served by
 * `toolgate serve` at `/`. They hold no data and no token, so they load without one (the page then
 * reads its token from the URL fragment, or asks for it); every request they make goes through
 * the guard like any other. A Content-Security-Policy lets the page run only its own script and
 * style and talk only to this server: an ask's diff or command shown in the page cannot run.
 */
export * as ServerConsole from "./console.js"

import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/** The built console, from src/server, dist/server or the CLI bundle in dist/cli alike. */
export const DIRECTORY = fileURLToPath(new URL("../../dist/console/", import.meta.url))

/** The files served, by request path. */
export const FILES: Readonly<Record<string, { readonly file: string; readonly type: string }>> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/console/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
  "/console/app.css": { file: "app.css", type: "text/css; charset=utf-8" },
}

/** Paths served without a token (the guard's open paths). */
export const PATHS: ReadonlyArray<string> = Object.keys(FILES)

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

export const HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
}

export const Messages = {
  notBuilt: (directory: string) => `The console is not built (${directory} is missing): run npm run build`,
} as const

/** One file's bytes and type, read once; undefined when the path is not the console's, a message when it is not built. */
export const reader = () => {
  const cache = new Map<string, Buffer>()
  return (requestPath: string): { readonly body: Buffer; readonly type: string } | { readonly missing: string } | undefined => {
    const entry = FILES[requestPath]
    if (entry === undefined) return undefined
    const cached = cache.get(entry.file)
    if (cached !== undefined) return { body: cached, type: entry.type }
    try {
      const body = readFileSync(`${DIRECTORY}${entry.file}`)
      cache.set(entry.file, body)
      return { body, type: entry.type }
    } catch {
      // A checkout that was never built: say how to build it, do not fail the server.
      return { missing: Messages.notBuilt(DIRECTORY) }
    }
  }
}
