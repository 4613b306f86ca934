/**
 * The bash gate's bypass tables run for real with the sandbox on (issue 20): every line of
 * every table (test/lib/bash-tables.ts), with every rule allowing and every ask answered
 * `once`, so nothing but the sandbox stands between the line and the machine. What the parser
 * misses must still not write outside the Location: the folder the tables call `/outside`
 * (here a folder in /var/tmp), the home folder, and the host's `/`, `/etc` and `/root`
 * are the same afterwards. The sandbox is checked to hold before any line runs; were it broken,
 * the tool would fail closed rather than run a line unsandboxed (the test of a missing bwrap).
 */
import { createHash } from "node:crypto"
import { lstatSync, readdirSync, readFileSync } from "node:fs"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { BashTool } from "../../src/tool/builtin/bash.js"
import { TABLES, HIDDEN } from "../lib/bash-tables.js"
import { globalConfig } from "../lib/config.js"
import { harnessLayer, makeHarness, settle, textOf } from "../lib/file-tools.js"

/** Each entry under `folder` (depth first, links not followed) with its kind, size and content hash. */
const tree = (folder: string, depth = Number.POSITIVE_INFINITY): ReadonlyArray<string> => {
  const found: string[] = []
  const walk = (at: string, level: number) => {
    let names: string[]
    try {
      names = readdirSync(at).sort()
    } catch {
      return
    }
    for (const name of names) {
      const entry = path.join(at, name)
      const info = lstatSync(entry)
      const hash = info.isFile() && info.size < 1_000_000 ? createHash("sha256").update(readFileSync(entry)).digest("hex").slice(0, 12) : ""
      found.push(`${entry} ${info.isDirectory() ? "d" : info.isSymbolicLink() ? "l" : "f"} ${info.isDirectory() ? "" : info.size} ${hash}`)
      if (info.isDirectory() && level > 1) walk(entry, level - 1)
    }
  }
  walk(folder, depth)
  return found
}

const COMMANDS = [...new Set([...TABLES.flatMap((table) => table.commands), HIDDEN])]

describe("the bypass tables inside the sandbox", () => {
  it.live(`${COMMANDS.length} lines, all allowed, write nothing outside the Location`, () =>
    Effect.gen(function* () {
      const harness = yield* makeHarness
      // Outside /tmp, so that it is visible (read-only) in the sandbox: /tmp's own content is not.
      const outside = yield* Effect.acquireRelease(
        Effect.promise(() => mkdtemp(path.join("/var/tmp", "toolgate-outside-"))),
        (folder) => Effect.promise(() => rm(folder, { recursive: true, force: true })),
      )
      yield* Effect.promise(() => writeFile(path.join(outside, "victim"), "victim\n"))
      yield* Effect.promise(() => writeFile(path.join(harness.home, ".bashrc"), "# mine\n"))
      const config = globalConfig({ bash: { sandbox: "workspace-write" }, permission: [{ action: "*", resource: "*", effect: "allow" }] })
      const host = () => [...tree("/", 1), ...tree("/etc", 2), ...tree("/root", 2)]
      const before = { outside: tree(outside), home: tree(harness.home), host: host() }
      yield* Effect.gen(function* () {
        // `~` in the lines is the test's home (a walk of the real one would only cost time).
        const tool = yield* BashTool.makeWith({ env: { ...process.env, HOME: harness.home } })
        // The sandbox holds before anything else runs.
        const probe = yield* Effect.scoped(settle(tool, { command: `touch ${outside}/canary` }, "once"))
        expect(textOf(probe.result as never)).toMatch(/Read-only file system/)
        for (const line of COMMANDS) {
          const command = line.replaceAll("/outside", outside)
          yield* Effect.scoped(settle(tool, { command, timeout: 2_000 }, "once"))
        }
      }).pipe(Effect.scoped, Effect.provide(harnessLayer(harness.root, config)))
      expect(tree(outside)).toEqual(before.outside)
      expect(tree(harness.home)).toEqual(before.home)
      expect(host()).toEqual(before.host)
    }), 600_000)
})
