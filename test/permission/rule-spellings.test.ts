import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs"
import { mkdir, mkdtemp, symlink } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { PermissionEvaluate } from "../../src/permission/evaluate.js"
import { PermissionRuleSpellings } from "../../src/permission/rule-spellings.js"

describe("PermissionRuleSpellings", () => {
  it("reads a folder written with a trailing slash as the folder and everything in it", () => {
    expect(PermissionRuleSpellings.spellings("secret/", "/home/me")).toEqual(["secret", "secret/*"])
    expect(PermissionRuleSpellings.spellings("secret", "/home/me")).toEqual(["secret"])
    expect(PermissionRuleSpellings.spellings("secret/*", "/home/me")).toEqual(["secret/*"])
    expect(PermissionRuleSpellings.spellings("/", "/home/me")).toEqual(["/"])
    expect(PermissionRuleSpellings.stored("./secret//")).toBe("secret/")
    expect(PermissionRuleSpellings.spellings(PermissionRuleSpellings.stored("./secret//"), undefined)).toEqual(["secret", "secret/*"])
  })

  it("adds the real form of an absolute or home pattern written through a link", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "spell-"))
    await mkdir(path.join(root, "real", "secret"), { recursive: true })
    await symlink(path.join(root, "real"), path.join(root, "link"))
    const real = path.join(await import("node:fs").then((fs) => fs.realpathSync.native(root)), "real")
    expect(PermissionRuleSpellings.spellings(`${root}/link/secret/*`, "/nowhere")).toEqual([`${root}/link/secret/*`, `${real}/secret/*`])
    // Through `~`, and for a file that does not exist yet.
    expect(PermissionRuleSpellings.spellings("~/link/new.txt", root)).toEqual([`${root}/link/new.txt`, `${real}/new.txt`])
    // A wildcard before any link: nothing to resolve there.
    expect(PermissionRuleSpellings.spellings(`${root}/*/secret`, "/nowhere")).toEqual([`${root}/*/secret`, `${path.dirname(real)}/*/secret`].filter((item, index, all) => all.indexOf(item) === index))
  })

  it("makes a deny written through a link deny the real file, and a folder deny deny what is in it", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "spell-"))
    await mkdir(path.join(root, "real", "secret"), { recursive: true })
    await symlink(path.join(root, "real"), path.join(root, "link"))
    const real = (await import("node:fs")).realpathSync.native(path.join(root, "real"))
    const source = { kind: "builtin" as const, agent: "test" }
    const rules = (written: string) => [
      { action: "read", resource: "*", effect: "allow" as const, source },
      ...PermissionRuleSpellings.expand([{ action: "read", resource: written, effect: "deny" as const, source }], root),
    ]
    const effect = (written: string, resource: string) => PermissionEvaluate.evaluateInput({ action: "read", resources: [resource], configured: rules(written), session: [], saved: [], opaque: false }).effect
    expect(effect(`${root}/link/secret/*`, `${real}/secret/x`)).toBe("deny")
    expect(effect("~/link/secret/*", `${real}/secret/x`)).toBe("deny")
    expect(effect("secret/", "secret/x")).toBe("deny")
    expect(effect("secret/", "secrets.txt")).toBe("allow")
  })

  it("resolves a relative pattern in the Location: a link inside leads to its target's relative form, a link out to the absolute one", () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "toolgate-spellings-relative-")))
    const work = path.join(root, "work")
    mkdirSync(path.join(work, "vault"), { recursive: true })
    mkdirSync(path.join(root, "elsewhere"), { recursive: true })
    symlinkSync("vault", path.join(work, "secret"))
    symlinkSync(path.join(root, "elsewhere"), path.join(work, "out"))
    expect(PermissionRuleSpellings.spellings("secret/", "/nowhere", work)).toEqual(["secret", "secret/*", "vault", "vault/*"])
    expect(PermissionRuleSpellings.spellings("secret/key.txt", "/nowhere", work)).toEqual(["secret/key.txt", "vault/key.txt"])
    expect(PermissionRuleSpellings.spellings("out/*", "/nowhere", work)).toEqual(["out/*", `${root}/elsewhere/*`])
    expect(PermissionRuleSpellings.spellings("*.env", "/nowhere", work)).toEqual(["*.env"])
    expect(PermissionRuleSpellings.spellings("plain/dir/", "/nowhere", work)).toEqual(["plain/dir", "plain/dir/*"])
    rmSync(root, { recursive: true, force: true })
  })
})

describe("PermissionRuleSpellings for command rules", () => {
  it("spells blanks outside quotes as the gate spells a command's", () => {
    expect(PermissionRuleSpellings.commandForm(" git  push\t*  ")).toBe("git push *")
    expect(PermissionRuleSpellings.commandForm(`echo "a  b"   'c  d'  *`)).toBe(`echo "a  b" 'c  d' *`)
    expect(PermissionRuleSpellings.resources("bash", "git  push *", undefined)).toEqual(["git  push *", "git push *"])
    expect(PermissionRuleSpellings.resources("bash", "git push *", undefined)).toEqual(["git push *"])
    expect(PermissionRuleSpellings.resources("webfetch", "a  b", undefined)).toEqual(["a  b"])
  })

  it("makes a deny written with two spaces deny the command the gate sees", () => {
    const rules = PermissionRuleSpellings.expand([{ action: "bash", resource: "*", effect: "allow" as const }, { action: "bash", resource: "git  push *", effect: "deny" as const }], undefined)
    expect(PermissionEvaluate.evaluate("bash", "git push origin", rules).effect).toBe("deny")
  })
})
