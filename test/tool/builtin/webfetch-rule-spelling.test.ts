/**
 * A webfetch rule names what is fetched, however it is written (permission/url-pattern.ts).
 * Against a real server on 127.0.0.1: a deny written in another spelling of the host (`127.1`,
 * `2130706433`, `LOCALHOST.`, a default port) used to deny nothing, not even the URL spelled as
 * the rule, and the request arrived; now every spelling of the URL is blocked and nothing arrives.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { globalConfig } from "../../lib/config.js"
import { settle } from "../../lib/file-tools.js"
import { serve } from "../../lib/http-server.js"
import { failureTag, page, withTool } from "./web/webfetch-harness.js"

describe("webfetch rules written in other spellings", () => {
  it.live("deny what they name, against a real server", () =>
    Effect.gen(function* () {
      const server = yield* serve(page("secret", "text/plain"))
      const port = server.port
      const rules = [`http://127.1:${port}/*`, `http://2130706433:${port}/*`, `HTTP://127.0.0.1:${port}/*`, `http://0x7f.0.0.1:*`, `http://127.0.0.1.:${port}/*`]
      const urls = [`http://127.0.0.1:${port}/a`, `http://127.1:${port}/a`, `http://0177.0.0.1:${port}/b`]
      for (const denied of rules) {
        yield* withTool(
          (tool) =>
            Effect.gen(function* () {
              for (const url of urls) {
                const { result } = yield* settle(tool, { url, timeout: 2 })
                expect([denied, url, failureTag(result)]).toEqual([denied, url, "Permission.BlockedError"])
              }
            }),
          globalConfig({ permission: [{ action: "webfetch", resource: "*", effect: "allow" }, { action: "webfetch", resource: denied, effect: "deny" }] }),
        )
      }
      expect(server.requests.length).toBe(0)
      // The server is there: without the deny the same URL arrives.
      yield* withTool(
        (tool) => Effect.asVoid(settle(tool, { url: urls[0], timeout: 2 })),
        globalConfig({ permission: [{ action: "webfetch", resource: "*", effect: "allow" }] }),
      )
      expect(server.requests.length).toBe(1)
    }))
})
