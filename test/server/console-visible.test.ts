/**
 * What the console shows of an ask, in real Chromium against a real `toolgate serve`: text from
 * the request that would not show as itself (a bidi override that reverses what follows, a
 * zero-width space, a lookalike blank) is shown escaped, as the terminal shows it, and a line
 * break in a command shows as a break, not as the space an argument would be. The directory the
 * command runs in is shown with it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { ConsoleUrl } from "../../src/server/console-url.js"
import { Text } from "../../web/console/text.js"
import { browser } from "../lib/browser.js"
import { ASK_BASH, session, start } from "../lib/server.js"

/** Reversed on screen by the override: it reads `echo safe` after a harmless echo. */
const COMMAND = "echo hi\nrm -rf x #\u202e efas ohce\u200b\u00a0"

describe("the web console in Chromium", { timeout: 60_000 }, () => {
  it.live("shows a request's invisible and reordering characters escaped, and its line breaks as breaks", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const chromium = yield* browser
      const page = yield* Effect.promise(() => chromium.newPage({ viewport: { width: 1100, height: 900 } }))
      yield* Effect.promise(() => page.goto(ConsoleUrl.of(server.url, server.token)))
      const sessionID = yield* session(server, { rules: ASK_BASH })
      const called = server.api(`/api/session/${sessionID}/call`, { body: { call: { name: "bash", input: { command: COMMAND, description: "say\u2066 hi" } } } })
      yield* Effect.promise(() => page.waitForSelector('[data-testid="ask"]'))
      const shown = (selector: string) =>
        Effect.promise(() => page.textContent(selector)).pipe(Effect.repeat({ until: (text) => text !== null && text !== "", schedule: Schedule.spaced("50 millis") }))
      expect(yield* shown('[data-testid="effect-Command"]')).toBe("echo hi\nrm -rf x #\\u202e efas ohce\\u200b\\u00a0")
      expect(yield* shown('[data-testid="effect-Description"]')).toBe("say\\u2066 hi")
      expect(yield* shown(`[data-testid="effect-${Text.workdir}"]`)).toBe(server.root)
      expect(yield* Effect.promise(() => page.innerText('[data-testid="effect-Command"]'))).toBe("echo hi\nrm -rf x #\\u202e efas ohce\\u200b\\u00a0")
      yield* Effect.promise(() => page.keyboard.press("r"))
      expect((yield* Effect.promise(() => called)).body.kind).not.toBe("success")
    }),
  )
})
