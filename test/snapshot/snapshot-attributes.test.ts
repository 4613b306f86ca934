import { execFileSync } from "node:child_process"
import { mkdir, readFile, rm, utimes, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Snapshot } from "../../src/snapshot/snapshot.js"
import { tmpdir } from "../lib/tmp.js"

/** What a project's `.gitattributes` would have git convert on the way in or out of a snapshot. */
const FILES: Readonly<Record<string, Buffer>> = {
  ".gitattributes": Buffer.from("* text=auto\n*.crlf text eol=crlf\n*.id ident\n*.enc working-tree-encoding=UTF-16\n"),
  "lf.crlf": Buffer.from("one\ntwo\n"),
  "windows.txt": Buffer.from("one\r\ntwo\r\n"),
  "keyword.id": Buffer.from("$Id$\n"),
  "latin.enc": Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
}

describe("Snapshot: a project's .gitattributes", () => {
  it.live("a revert writes back each file's bytes as they were, whatever the attributes say", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const location = path.join(root, "project")
      yield* Effect.promise(async () => {
        await mkdir(location)
        for (const [name, bytes] of Object.entries(FILES)) await writeFile(path.join(location, name), bytes)
      })
      const snapshot = yield* Effect.provide(Snapshot.Service, Snapshot.layer({ dataDir: path.join(root, "data"), projectID: "prj_test", location }))
      const tree = (yield* snapshot.track) as string
      const names = Object.keys(FILES).filter((name) => name !== ".gitattributes")
      yield* Effect.promise(() => Promise.all(names.map((name) => rm(path.join(location, name)))))
      yield* snapshot.restore(tree, names)
      for (const name of names) expect(yield* Effect.promise(() => readFile(path.join(location, name))), name).toEqual(FILES[name])
      expect(yield* Effect.promise(() => readFile(path.join(snapshot.directory, "info", "attributes"), "utf8"))).toBe(Snapshot.ATTRIBUTES)
    }),
  )

  it.live("a repository made before its attributes file holds the files it staged then by their bytes again", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const location = path.join(root, "project")
      const crlf = Buffer.from("one\r\ntwo\r\n")
      yield* Effect.promise(async () => {
        await mkdir(location)
        await writeFile(path.join(location, ".gitattributes"), "*.txt text eol=crlf\n")
        await writeFile(path.join(location, "a.txt"), crlf)
        // Older than the index: git's stat check trusts it, as it would a file untouched for days.
        await utimes(path.join(location, "a.txt"), new Date(Date.now() - 86_400_000), new Date(Date.now() - 86_400_000))
      })
      const options = { dataDir: path.join(root, "data"), projectID: "prj_test", location }
      const first = yield* Effect.provide(Snapshot.Service, Snapshot.layer(options))
      yield* first.track
      // As an older toolgate left it: no attributes file, the file stored as the project's attributes converted it.
      yield* Effect.promise(async () => {
        await rm(path.join(first.directory, "info", "attributes"))
        execFileSync("git", ["--git-dir", first.directory, "--work-tree", location, "add", "--renormalize", "a.txt"])
      })
      const converted = execFileSync("git", ["--git-dir", first.directory, "cat-file", "blob", ":a.txt"])
      expect(converted.toString()).toBe("one\ntwo\n")
      const later = yield* Effect.provide(Snapshot.Service, Snapshot.layer(options))
      const tree = (yield* later.track) as string
      yield* Effect.promise(() => rm(path.join(location, "a.txt")))
      yield* later.restore(tree, ["a.txt"])
      expect(yield* Effect.promise(() => readFile(path.join(location, "a.txt")))).toEqual(crlf)
    }),
  )
})
