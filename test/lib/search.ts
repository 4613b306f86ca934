/**
 * Helpers for the search tools' tests (and any file tool's): the real rg binary, a tool made inside the file-tool
 * harness (real Location, database and permission gate), files written from a record, and fake
 * `rg` scripts (a recorder that runs the real binary, a sleeper that never answers).
 */
import { chmod, mkdir, realpath, writeFile } from "node:fs/promises"
import path from "node:path"
import { rgPath } from "@vscode/ripgrep"
import { Effect } from "effect"
import type { Config } from "../../src/config.js"
import type { FileAccess } from "../../src/tool/builtin/file-access.js"
import type { FileMutation } from "../../src/location/file-mutation.js"
import type { Permission } from "../../src/permission/permission.js"
import type { History } from "../../src/snapshot/history.js"
import type { Tool } from "../../src/tool/tool.js"
import { type Harness, harnessLayer, makeHarness } from "./file-tools.js"

/** The binary shipped by @vscode/ripgrep. */
export const RG = rgPath

export type Make = Effect.Effect<Tool.AnyTool, never, FileAccess.Service | Permission.Service | FileMutation.Service | History.Service>

/** Runs `body` with the tool made in a fresh harness; `root` and `work` are real paths. */
export const withSearchTool = <A, E>(make: Make, body: (tool: Tool.AnyTool, harness: Harness) => Effect.Effect<A, E, any>, config?: Partial<Config.Info>) =>
  Effect.gen(function* () {
    const made = yield* makeHarness
    const root = yield* Effect.promise(() => realpath(made.root))
    const harness = { root, work: path.join(root, "work"), home: path.join(root, "home") }
    return yield* Effect.flatMap(make, (tool) => body(tool, harness) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(made.root, config)))
  })

/** Writes every file (creating folders) under `dir`. */
export const files = (dir: string, entries: Readonly<Record<string, string | Uint8Array>>) =>
  Effect.promise(async () => {
    for (const [name, content] of Object.entries(entries)) {
      await mkdir(path.dirname(path.join(dir, name)), { recursive: true })
      await writeFile(path.join(dir, name), content)
    }
  })

/** An executable shell script at `file`. */
export const script = (file: string, body: string) =>
  Effect.promise(async () => {
    await writeFile(file, `#!/bin/sh\n${body}\n`)
    await chmod(file, 0o755)
    return file
  })

/** A fake rg that touches `marker` and then runs the real binary with the same arguments. */
export const recordingRg = (dir: string, marker: string) => script(path.join(dir, "recording-rg"), `touch '${marker}'\nexec '${RG}' "$@"`)

/** A fake rg that prints its pid and then sleeps (as the same process) for a minute. */
export const sleepingRg = (dir: string) => script(path.join(dir, "sleeping-rg"), "echo $$\nexec sleep 60")

/** What was asked, in order, without ids and timestamps. */
export const askedOf = (asked: ReadonlyArray<Permission.Request>) => asked.map(({ action, resources, save }) => ({ action, resources, save }))
