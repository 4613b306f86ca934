import { mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Config } from "../../../src/config.js"
import { ProtectedPath } from "../../../src/location/protected-path.js"
import { Permission } from "../../../src/permission/permission.js"
import { ApplyPatchTool } from "../../../src/tool/builtin/apply-patch.js"
import { EditTool } from "../../../src/tool/builtin/edit.js"
import { WriteTool } from "../../../src/tool/builtin/write.js"
import type { Tool } from "../../../src/tool/tool.js"
import { globalConfig } from "../../lib/config.js"
import { harnessLayer, makeHarness, settle, textOf } from "../../lib/file-tools.js"

/** The protected names that are folders: the sample path writes a file inside. */
const FOLDERS = [".toolgate", ".git", ".hg", ".config/git", ".husky", ".githooks", ".claude", ".agents", ".cursor", ".codex", ".gemini", ".opencode", ".continue", ".vscode", ".idea", ".zed", ".devcontainer", ".config/fish", ".ssh", ".cargo", ".local/bin", ".config/systemd", ".config/autostart", ".config/nvim", ".emacs.d", ".config/gh", ".config/tmux", ".gradle/init.d", ".config/pip", ".pip", ".config/environment.d"]
const sample = (name: string) => (FOLDERS.includes(name) ? `${name}/settings` : name)

type Make = Effect.Effect<Tool.AnyTool, never, any>

const withTool = <A, E>(make: Make, body: (tool: Tool.AnyTool, work: string) => Effect.Effect<A, E, any>, config?: Partial<Config.Info>, caseInsensitive?: boolean) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    const options = caseInsensitive === undefined ? {} : { caseInsensitive }
    return yield* Effect.flatMap(make, (tool) => body(tool, harness.work) as Effect.Effect<A, E, never>).pipe(Effect.provide(harnessLayer(harness.root, config, options)))
  })

const put = (file: string, content: string) =>
  Effect.promise(async () => {
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, content)
  })
const read = (file: string) => Effect.promise(() => readFile(file, "utf8"))
const exists = (file: string) => Effect.promise(() => stat(file).then(() => true, () => false))
const link = (target: string, at: string) => Effect.promise(() => symlink(target, at))
const summary = (asked: ReadonlyArray<Permission.Request>) => asked.map((request) => ({ action: request.action, resources: request.resources, save: request.save }))
const patch = (...lines: ReadonlyArray<string>) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n")

const write = WriteTool.make as Make

describe("protected paths, written by file tools under the build defaults", () => {
  for (const name of ProtectedPath.NAMES) {
    const file = sample(name)
    it.live(`write ${file} asks edit on exactly it, though * * allow`, () =>
      withTool(write, (tool, work) =>
        Effect.gen(function* () {
          const { result, asked } = yield* settle(tool, { path: file, content: "x\n" }, "reject")
          expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Permission.DeclinedError)
          expect(summary(asked)).toEqual([{ action: "edit", resources: [file], save: [path.join(work, file)] }])
          expect(yield* exists(path.join(work, file))).toBe(false)
        }),
      ))
  }

  it.live("outside the working directory, a start-up file asks edit with its diff after its folder's ask; another file does not", () =>
    withTool(write, (tool, work) =>
      Effect.gen(function* () {
        const home = path.join(path.dirname(work), "home")
        yield* put(path.join(home, ".bashrc"), "alias ll='ls -l'\n")
        const { result, asked } = yield* settle(tool, { path: path.join(home, ".bashrc"), content: "curl x | sh\n" }, "once")
        expect(result._tag).toBe("Success")
        expect(asked.map((request) => request.action)).toEqual(["external_directory", "edit"])
        expect(String(asked[1]?.metadata.diff)).toContain("+curl x | sh")
        expect(asked[1]?.why?.[0]?.raised).toEqual({ kind: "protected", names: [".bashrc"] })
        const other = yield* settle(tool, { path: path.join(home, "notes.txt"), content: "x\n" }, "once")
        expect(other.asked.map((request) => request.action)).toEqual(["external_directory"])
      }),
    ))

  it.live("outside the working directory, ssh's, cargo's and PATH's files ask edit after the folder's approval", () =>
    withTool(
      write,
      (tool, work) =>
        Effect.gen(function* () {
          const home = path.join(path.dirname(work), "home")
          for (const file of [".ssh/authorized_keys", ".ssh/config", ".cargo/config.toml", ".local/bin/git", ".config/systemd/user/x.service"]) {
            const target = path.join(home, file)
            const { result, asked } = yield* settle(tool, { path: target, content: "x\n" }, "reject")
            expect([file, result._tag === "Failure" && result.failure instanceof Permission.DeclinedError]).toEqual([file, true])
            expect([file, summary(asked)]).toEqual([file, [{ action: "edit", resources: [target], save: [target] }]])
            expect(yield* exists(target)).toBe(false)
          }
        }),
      globalConfig({ permission: [{ action: "external_directory", resource: "*", effect: "allow" }] }),
    ))

  it.live("lets a write elsewhere through without asking", () =>
    withTool(write, (tool) =>
      Effect.gen(function* () {
        expect((yield* settle(tool, { path: "src/git/config.ts", content: "x\n" }, "reject")).asked).toEqual([])
        expect((yield* settle(tool, { path: ".gitignore", content: "x\n" }, "reject")).asked).toEqual([])
      }),
    ))

  it.live("edit and apply_patch ask too, apply_patch once with every resource", () =>
    Effect.gen(function* () {
      yield* withTool(EditTool.make as Make, (tool, work) =>
        Effect.gen(function* () {
          yield* put(path.join(work, ".git", "config"), "[core]\n")
          const { asked } = yield* settle(tool, { path: ".git/config", oldString: "[core]", newString: "[core]\n\tfsmonitor = ./x" }, "reject")
          expect(summary(asked)).toEqual([{ action: "edit", resources: [".git/config"], save: [path.join(work, ".git/config")] }])
          expect(yield* read(path.join(work, ".git", "config"))).toBe("[core]\n")
        }),
      )
      yield* withTool(ApplyPatchTool.make as Make, (tool, work) =>
        Effect.gen(function* () {
          const { result, asked } = yield* settle(tool, { patchText: patch("*** Add File: src/a.ts", "+a", "*** Add File: .envrc", "+eval x") }, "once")
          expect(result._tag).toBe("Success")
          expect(summary(asked)).toEqual([{ action: "edit", resources: ["src/a.ts", ".envrc"], save: [path.join(work, "src/a.ts"), path.join(work, ".envrc")] }])
        }),
      )
    }))

  it.live("allows a write when a rule names the protected path, and only that one", () =>
    withTool(write, (tool, work) =>
      Effect.gen(function* () {
        const { result, asked } = yield* settle(tool, { path: ".vscode/settings.json", content: "{}\n" }, "reject")
        expect(result._tag).toBe("Success")
        expect(asked).toEqual([])
        expect(yield* read(path.join(work, ".vscode", "settings.json"))).toBe("{}\n")
        expect(summary((yield* settle(tool, { path: ".vscode/.git/config", content: "x\n" }, "reject")).asked)).toEqual([
          { action: "edit", resources: [".vscode/.git/config"], save: [path.join(work, ".vscode/.git/config")] },
        ])
        expect((yield* settle(tool, { path: ".idea/x.xml", content: "x\n" }, "reject")).asked).toHaveLength(1)
      }),
      globalConfig({ permission: [{ action: "edit", resource: ".vscode/**", effect: "allow" }] }),
    ))

  it.live("keeps a deny a deny", () =>
    withTool(write, (tool) =>
      Effect.gen(function* () {
        const { result, asked } = yield* settle(tool, { path: ".git/hooks/pre-commit", content: "x\n" }, "once")
        expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Permission.BlockedError)
        expect(asked).toEqual([])
      }),
      globalConfig({ permission: [{ action: "edit", resource: ".git/**", effect: "deny" }] }),
    ))

  it.live("saves exactly the protected file on always: the next write of it passes, another protected file still asks", () =>
    withTool(write, (tool, work) =>
      Effect.gen(function* () {
        const first = yield* settle(tool, { path: ".envrc", content: "a\n" }, "always")
        expect(summary(first.asked)).toEqual([{ action: "edit", resources: [".envrc"], save: [path.join(work, ".envrc")] }])
        expect((yield* settle(tool, { path: ".envrc", content: "b\n" }, "reject")).asked).toEqual([])
        expect(yield* read(path.join(work, ".envrc"))).toBe("b\n")
        expect((yield* settle(tool, { path: "sub/.envrc", content: "b\n" }, "reject")).asked).toHaveLength(1)
      }),
    ))
})

describe("protected paths, spelled otherwise", () => {
  const asksFor = (input: string, resource: string) =>
    Effect.fnUntraced(function* (tool: Tool.AnyTool, work: string) {
      const { asked } = yield* settle(tool, { path: input, content: "x\n" }, "reject")
      expect(summary(asked)).toEqual([{ action: "edit", resources: [resource], save: [path.join(work, resource)] }])
    })

  it.live("judges the real path: dot segments, a link to a protected file, a dangling link, a link to its folder", () =>
    withTool(write, (tool, work) =>
      Effect.gen(function* () {
        yield* put(path.join(work, ".git", "config"), "[core]\n")
        yield* Effect.promise(() => mkdir(path.join(work, "sub")))
        yield* asksFor("./.git/../.git/config", ".git/config")(tool, work)
        yield* asksFor("sub/../.git/config", ".git/config")(tool, work)
        yield* link(".git/config", path.join(work, "cfg"))
        yield* asksFor("cfg", ".git/config")(tool, work)
        yield* link(".envrc", path.join(work, "rc"))
        yield* asksFor("rc", ".envrc")(tool, work)
        yield* link(".git", path.join(work, "g"))
        yield* asksFor("g/hooks/pre-commit", ".git/hooks/pre-commit")(tool, work)
        yield* asksFor(path.join(work, ".git", "config"), ".git/config")(tool, work)
        expect(yield* read(path.join(work, ".git", "config"))).toBe("[core]\n")
      }),
    ))

  it.live("folds the spelling where the volume ignores case", () =>
    withTool(
      write,
      (tool, work) =>
        Effect.gen(function* () {
          yield* asksFor("sub/../.GIT/config", ".GIT/config")(tool, work)
          yield* asksFor(".Vscode/settings.json", ".Vscode/settings.json")(tool, work)
          yield* asksFor("TOOLGATE.JSON", "TOOLGATE.JSON")(tool, work)
          yield* asksFor(".git./config", ".git./config")(tool, work)
        }),
      undefined,
      true,
    ))

  it.live("keeps those spellings apart where the volume is case-sensitive", () =>
    withTool(
      write,
      (tool) =>
        Effect.gen(function* () {
          expect((yield* settle(tool, { path: ".GIT/config", content: "x\n" }, "reject")).asked).toEqual([])
        }),
      undefined,
      false,
    ))

  it.live("allows a spelling folded to a name a rule gives, where the volume ignores case", () =>
    withTool(
      write,
      (tool) =>
        Effect.gen(function* () {
          const { result, asked } = yield* settle(tool, { path: ".VSCODE/settings.json", content: "{}\n" }, "reject")
          expect(textOf(result).split("\n")[0]).toBe(WriteTool.Messages.created(".VSCODE/settings.json"))
          expect(asked).toEqual([])
        }),
      globalConfig({ permission: [{ action: "edit", resource: ".vscode/**", effect: "allow" }] }),
      true,
    ))
})
