import { chmod, mkdir, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { BashShell } from "../../../../src/tool/builtin/bash/shell.js"
import { tmpdir } from "../../../lib/tmp.js"

describe("BashShell.select", () => {
  const onPath = () => "/opt/bin/bash"
  const nowhere = () => undefined
  const cases = [
    { name: "$SHELL bash", env: { SHELL: "/usr/local/bin/bash" }, lookup: onPath, shell: "/usr/local/bin/bash" },
    { name: "$SHELL zsh (the parser reads bash, so bash runs it)", env: { SHELL: "/bin/zsh" }, lookup: onPath, shell: "/opt/bin/bash" },
    { name: "$SHELL sh (dash reads other commands into the same text)", env: { SHELL: "/bin/sh" }, lookup: onPath, shell: "/opt/bin/bash" },
    { name: "$SHELL dash", env: { SHELL: "/usr/bin/dash" }, lookup: onPath, shell: "/opt/bin/bash" },
    { name: "$SHELL fish falls back to bash on PATH", env: { SHELL: "/usr/bin/fish" }, lookup: onPath, shell: "/opt/bin/bash" },
    { name: "a name that only ends in sh", env: { SHELL: "/usr/bin/fsh" }, lookup: onPath, shell: "/opt/bin/bash" },
    { name: "no $SHELL", env: {}, lookup: onPath, shell: "/opt/bin/bash" },
    { name: "empty $SHELL", env: { SHELL: "" }, lookup: onPath, shell: "/opt/bin/bash" },
    { name: "no bash anywhere", env: { SHELL: "/usr/bin/fish" }, lookup: nowhere, shell: BashShell.FALLBACK },
  ]
  for (const c of cases) it(`${c.name} → ${c.shell}`, () => expect(BashShell.select(c.env, c.lookup)).toBe(c.shell))

  it("asks the lookup for bash only", () => {
    const asked: Array<string> = []
    BashShell.select({}, (name) => {
      asked.push(name)
      return undefined
    })
    expect(asked).toEqual(["bash"])
  })
})

describe("BashShell.readsBash", () => {
  it.live("is true for bash and a link to it, false for dash, a link named bash to something else and a missing file", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const bash = BashShell.which("bash", process.env) as string
      yield* Effect.promise(() => symlink(bash, path.join(dir, "sh")))
      yield* Effect.promise(() => writeFile(path.join(dir, "fake"), "#!/bin/sh\n"))
      yield* Effect.promise(() => symlink(path.join(dir, "fake"), path.join(dir, "bash")))
      expect([bash, path.join(dir, "sh"), path.join(dir, "bash"), path.join(dir, "missing")].map(BashShell.readsBash)).toEqual([true, true, false, false])
      expect(BashShell.readsBash("/usr/bin/dash")).toBe(false)
    }))
})

describe("BashShell.which", () => {
  const executable = (file: string, mode = 0o755) =>
    Effect.promise(async () => {
      await mkdir(path.dirname(file), { recursive: true })
      await writeFile(file, "#!/bin/sh\n")
      await chmod(file, mode)
    })

  it.live("finds the first executable file in the absolute PATH entries", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      yield* executable(path.join(dir, "a", "bash"), 0o644)
      yield* Effect.promise(() => mkdir(path.join(dir, "b", "bash"), { recursive: true }))
      yield* executable(path.join(dir, "c", "bash"))
      yield* executable(path.join(dir, "d", "bash"))
      const PATH = ["a", "b", "c", "d"].map((entry) => path.join(dir, entry)).join(path.delimiter)
      expect(BashShell.which("bash", { PATH })).toBe(path.join(dir, "c", "bash"))
    }))

  it.live("ignores empty and relative PATH entries", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      yield* executable(path.join(dir, "bin", "bash"))
      const previous = process.cwd()
      yield* Effect.acquireRelease(
        Effect.sync(() => process.chdir(dir)),
        () => Effect.sync(() => process.chdir(previous)),
      )
      expect(BashShell.which("bash", { PATH: ["", "bin", "."].join(path.delimiter) })).toBeUndefined()
      expect(BashShell.which("bash", {})).toBeUndefined()
    }))

  it.live("resolve uses the environment's SHELL and PATH", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      yield* executable(path.join(dir, "bash"))
      expect(yield* BashShell.resolve({ SHELL: "/usr/bin/fish", PATH: dir })).toBe(path.join(dir, "bash"))
      expect(yield* BashShell.resolve({ SHELL: "/bin/zsh", PATH: dir })).toBe(path.join(dir, "bash"))
      expect(yield* BashShell.resolve({ SHELL: "/bin/dash", PATH: dir })).toBe(path.join(dir, "bash"))
    }))
})
