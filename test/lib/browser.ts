/**
 * Real Chromium for the console's end-to-end tests: Debian's `chromium` (installed by .ci/run)
 * driven by playwright-core, headless, with a fresh profile, and without the background traffic
 * this machine's closed network refuses. Closed with the test's scope.
 */
import { existsSync } from "node:fs"
import { Effect } from "effect"
import { type Browser, chromium } from "playwright-core"

/** Where Debian puts the browser; CHROMIUM overrides it. */
export const EXECUTABLE = process.env.CHROMIUM ?? "/usr/bin/chromium"

export const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]

export const Messages = {
  missing: `Chromium is not installed at ${EXECUTABLE}: install Debian's chromium (apt-get install -y chromium, as .ci/run does) or set CHROMIUM`,
} as const

/** A browser for the scope; fails with a message saying how to install one when there is none. */
export const browser: Effect.Effect<Browser, Error, import("effect").Scope.Scope> = Effect.acquireRelease(
  Effect.tryPromise({
    try: async () => {
      if (!existsSync(EXECUTABLE)) throw new Error(Messages.missing)
      return await chromium.launch({ executablePath: EXECUTABLE, args: ARGS, headless: true })
    },
    catch: (cause) => (cause instanceof Error ? cause : new Error(String(cause))),
  }),
  (opened) => Effect.promise(() => opened.close()),
)
