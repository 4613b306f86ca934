import { mkdir, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SkillFiles } from "../../../src/tool/builtin/skill/files.js"
import { promise } from "../../lib/cli.js"
import { tmpdir } from "../../lib/tmp.js"

const files = (root: string, names: ReadonlyArray<string>) =>
  promise(() =>
    Promise.all(
      names.map(async (name) => {
        await mkdir(path.dirname(path.join(root, name)), { recursive: true })
        await writeFile(path.join(root, name), name)
      }),
    ),
  )

describe("SkillFiles", () => {
  it.live("lists files of every depth in string order of their relative paths, without the top-level SKILL.md", () =>
    Effect.gen(function* () {
      const root = path.join(yield* tmpdir, "skill")
      yield* files(root, ["SKILL.md", "z.md", "a/x.md", "a-b.md", "scripts/run.sh", "B.md", "a/deeper/y.md", "nested/SKILL.md"])
      const listed = yield* promise(() => SkillFiles.list(root, 10))
      expect(listed.map((file) => path.relative(root, file))).toEqual(["B.md", "a-b.md", "a/deeper/y.md", "a/x.md", "nested/SKILL.md", "scripts/run.sh", "z.md"])
      expect(listed.every((file) => path.isAbsolute(file))).toBe(true)
    }))

  it.live("stops at the limit, keeping the first files in order", () =>
    Effect.gen(function* () {
      const root = path.join(yield* tmpdir, "skill")
      const names = Array.from({ length: 12 }, (_, index) => `ref/file-${String(index).padStart(2, "0")}.md`)
      yield* files(root, ["SKILL.md", ...names.toReversed()])
      const listed = yield* promise(() => SkillFiles.list(root, 10))
      expect(listed).toEqual(names.slice(0, 10).map((name) => path.join(root, name)))
    }))

  it.live("skips hidden entries and linked folders, and lists a linked file only when it stays inside", () =>
    Effect.gen(function* () {
      const base = yield* tmpdir
      const root = path.join(base, "skill")
      yield* files(root, ["SKILL.md", ".git/HEAD", ".env", "docs/guide.md"])
      yield* files(base, ["outside/secret.txt"])
      yield* promise(() => symlink(path.join(root, "docs", "guide.md"), path.join(root, "guide-link.md")))
      yield* promise(() => symlink(path.join(base, "outside", "secret.txt"), path.join(root, "secret-link.txt")))
      yield* promise(() => symlink(path.join(base, "outside"), path.join(root, "outside-dir")))
      yield* promise(() => symlink(root, path.join(root, "docs", "loop")))
      const listed = yield* promise(() => SkillFiles.list(root, 10))
      expect(listed.map((file) => path.relative(root, file))).toEqual(["docs/guide.md", "guide-link.md"])
    }))
})
