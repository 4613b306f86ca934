/**
 * `toolgate/ai` is a package export (issue 19, item 2): a program that imports it by name from
 * the built package gets the tool set, the runner and the stop error. A real child Node process
 * resolving the package's own `exports`.
 */
import { execFileSync } from "node:child_process"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

describe("toolgate/ai", () => {
  it("resolves by the package name to the built module with toolSet, Runner and StopError", () => {
    const printed = execFileSync(process.execPath, ["--input-type=module", "-e", `const ai = await import("toolgate/ai"); console.log(JSON.stringify({ keys: Object.keys(ai).sort(), loop: typeof ai.Runner.loop, stop: new ai.StopError("declined", "no", "c", "bash").name }))`], { cwd: ROOT, encoding: "utf8" })
    expect(JSON.parse(printed)).toEqual({ keys: ["ModelOutput", "Runner", "StopError", "ToolCallError", "fromCatalog", "toolSet"], loop: "function", stop: "ToolgateStopError" })
  })
})
