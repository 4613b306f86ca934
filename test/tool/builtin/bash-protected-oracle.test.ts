/**
 * Writes to protected paths through programs' operands, judged against the real files: each line
 * runs for real (every ask approved once) in a fresh tree under the build defaults, where
 * everything inside the Location is allowed; the tree is compared before and after, and a line
 * that created or changed a protected path (ProtectedPath) must have asked first. The tree holds
 * what an earlier, allowed call could have left: a hard link `cfg` to `.git/config`, a link
 * `hooks -> .git/hooks`, a folder `evil` with an `.envrc` and a nested `.git`, and `tpl` with a
 * `toolgate.json`, and archives (`t.zip`, `t.a`, `t.deb`) holding `x`. Benign lines must still run without asking.
 */
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs"
import { link, mkdir, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ProtectedPath } from "../../../src/location/protected-path.js"
import { BashTool } from "../../../src/tool/builtin/bash.js"
import { harnessLayer, makeHarness, settle } from "../../lib/file-tools.js"
import { serve } from "../../lib/http-server.js"

/** Lines that write a protected path in the tree below, each in its own way. */
const WRITERS = [
  "cp x .git/config",
  "cp x .git/hooks/pre-commit",
  "cp x hooks/post-checkout",
  "cp -f x cfg",
  "cp evil/.envrc .",
  "cp evil/.envrc ./",
  "cp -t . evil/.envrc",
  "cp --target-directory=. evil/.envrc",
  "cp --parents evil/.git/config tpl",
  "cp -r evil/. .",
  "cp -rL deref/. .",
  "cp -RL deref/. sub/..",
  "cp -a evil dist",
  "cp -R evil/.git sub",
  "cp tpl/* .",
  "cp -r tpl sub",
  "cp x .envrc",
  "cp -- x .envrc",
  "cd .git && cp ../x config",
  "mv x .envrc",
  "mv x hooks/pre-push",
  "mv evil sub",
  "mv -t . evil/.envrc",
  "mv .git/hooks/pre-commit.sample .git/hooks/pre-commit",
  "ln -sf x .git/hooks/pre-commit",
  "ln -s evil/.envrc .",
  "ln -s x/.envrc",
  "ln x hooks/pre-commit",
  "link x .envrc",
  "install x .git/hooks/post-merge",
  "install -m 755 x hooks/pre-rebase",
  "install -D x sub/.git/hooks/pre-commit",
  "dd if=x of=.git/config",
  "dd of=cfg if=x conv=notrunc",
  "truncate -s 0 cfg",
  "truncate --size=0 .git/config",
  "echo '[core]' >> cfg",
  "printf x | tee -a cfg",
  "sort -o cfg x",
  "sed -n p x > cfg",
  "printf 'shell true\\n' > .gdbinit",
]

/** Lines that delete, create or change a protected path or one outside (`../sib`) through their operands. */
const REMOVERS = [
  "rm .git/config",
  "rm -f -- .git/hooks/pre-commit.sample",
  "rm -r .git/hooks",
  "rm -rf hooks/",
  "rm --recursive --force ../sib",
  "rm -rf ../sib",
  "rm ../sib/f",
  "rmdir ../sib/d",
  "unlink .git/hooks/pre-commit.sample",
  "busybox nuke .git/hooks",
  "shred -u .git/config",
  "shred -n 1 cfg",
  "shred --remove=unlink -n 1 ../sib/f",
  "touch .envrc",
  "touch ../sib/new",
  "mkdir .vscode",
  "mkdir -p .git/hooks/x",
  "mkdir ../sib/d2",
  "chmod +x .git/hooks/pre-commit.sample",
  "chmod -w .git/config",
  "chmod 600 cfg",
  "chmod -R 700 ../sib",
]

/** Lines whose decompressor, compiler or linker output lands on a protected path or outside. */
const BUILDERS = [
  "gzip -c x > .envrc.gz && gunzip .envrc.gz",
  "xz -c x > .envrc.xz && xz -d .envrc.xz",
  "bzip2 -c x > .envrc.bz2 && bunzip2 .envrc.bz2",
  "zstd -q -c x > .envrc.zst && zstd -q -d .envrc.zst",
  "lz4 -q -c x > y.lz4 && lz4 -q -d y.lz4 hooks/pre-push",
  "cc -x c -o .git/hooks/pre-commit - <<< 'int main(void){return 0;}'",
  "gcc -x c -o ../sib/pwn - <<< 'int main(void){return 0;}'",
  "gcc-12 -x c -o .git/hooks/pre-commit - <<< 'int main(void){return 0;}'",
  "gcc -x c -Wl,--output=.git/hooks/post-checkout - <<< 'int main(void){return 0;}'",
  "gcc -x c -MD -MF .envrc -c -o a.o - <<< 'int main(void){return 0;}'",
  "gzip -c x > .envrc.Z && uncompress .envrc.Z",
  "patch -s -o .envrc x /dev/null",
  "strip -o hooks/post-merge /bin/true",
  "objcopy /bin/true .git/hooks/post-commit",
]

/** Lines whose program writes the file an option or operand names (the fifth outside review): bash's `history -w`, openssl, ssh-keygen. */
const OUTPUTS = [
  "history -s '[core]'; history -w .git/config",
  "history -w .envrc",
  "history -s x; history -a ../sib/h",
  "openssl base64 -in x -out .git/config",
  "openssl base64 -in x -out=.envrc",
  "openssl enc -base64 -in x --out hooks/pre-push",
  "openssl rand -writerand .envrc 4",
  "ssh-keygen -q -t ed25519 -N '' -f .envrc",
  "logsave -a .git/config true",
  // The project's own esbuild (a bundler's output option; the banner makes the file's first line a command).
  `${path.resolve("node_modules/.bin/esbuild")} e.js --log-level=error --banner:js='true #' --outfile=.envrc`,
  `${path.resolve("node_modules/.bin/esbuild")} e.js --log-level=error --outfile=../sib/x.js`,
]

/** Lines that keep a string the shell runs later (a trap, mapfile's callback) that moves it: later writes land elsewhere (the fifth review). */
const LATER = [
  "trap 'cd .git' DEBUG; printf '[core]\\n' >> config",
  "trap 'cd .git' ERR; false; echo x >> config",
  "mapfile -C 'cd .git;:' -c 1 a <<< x; echo x >> config",
  "cd sub; trap 'echo x >> config' DEBUG; cd ../.git; true",
]

/** Lines whose program writes into a folder it names (a folder target, not a file): a protected folder asks like a protected file. */
const INTO_FOLDERS = [
  "tar -cf t.tar x && tar -xf t.tar -C .git/hooks",
  "tar -cf t.tar x && tar -xf t.tar --directory=hooks",
  "find .git/hooks -delete",
  "unzip -q t.zip -d .git/hooks",
  "unzip -qo t.zip -d ../sib",
  "unzip -q -dhooks t.zip",
  "ar x t.a --output=.git/hooks",
  "ar x t.a --output ../sib",
  "dpkg-deb -x t.deb .git/hooks",
]

/** Every copying program with every source and destination spelling: whichever lands on a protected path must ask. */
const CROSS = ["cp", "cp -f", "cp -r", "mv -f", "ln -f", "ln -sf", "install"].flatMap((program) =>
  ["x", "evil/.envrc", "./evil/../x"].flatMap((source) =>
    [".git/config", ".git/hooks/", "hooks", "hooks/", "cfg", ".", "./", "sub/..", ".envrc", "$PWD", "\"$PWD\"/hooks", "./.git/./hooks/pre-commit"].map((destination) => `${program} ${source} ${destination}`),
  ),
)

/** Downloads from a local server at `origin` (every path serves a git config; `/named` names itself `.envrc`): the URL or the server names the file. */
const DOWNLOADS = (origin: string) => [
  `curl -s --output-dir .git -O ${origin}/config`,
  `curl -s -O ${origin}/.envrc`,
  `curl -s -O '${origin}/a/.envrc?x=1'`,
  `curl -s --remote-name-all ${origin}/.envrc`,
  `curl -s --url ${origin}/.envrc -O`,
  `curl -s -OJ ${origin}/named`,
  `curl -s --output-dir .git -o config ${origin}/x`,
  `curl -s --output-dir hooks -O ${origin}/pre-commit`,
  `curl -s -o '#1' '${origin}/{.envrc}'`,
  `wget -q -P .git ${origin}/config`,
  `wget -q -x -nH ${origin}/.git/config`,
  `wget -q ${origin}/.envrc`,
  `wget -q ${origin}/%2eenvrc`,
  `wget -q --content-disposition ${origin}/named`,
  `wget -q -P hooks ${origin}/pre-push`,
]

/** Downloads that land nowhere protected: they must still run without an ask. */
const BENIGN_DOWNLOADS = (origin: string) => [`curl -s -O ${origin}/notes.txt`, `curl -s --output-dir sub -O ${origin}/a.txt`, `wget -q ${origin}/notes.txt`, `wget -q -P sub ${origin}/a.txt`]

/** Why a download line is not run: the program is missing. */
const missing = (program: string) => (spawnSync("sh", ["-c", `command -v ${program}`]).status === 0 ? undefined : `${program} is not installed: its download lines are not run`)

/** A server on 127.0.0.1 serving a git config with an fsmonitor at every path; `/named` asks to be saved as `.envrc`. */
const served = serve((request, response) => {
  if (request.path === "/named") response.setHeader("Content-Disposition", 'attachment; filename=".envrc"')
  response.end("[core]\n\tfsmonitor = ./x\n")
})

/** Lines that write nothing protected: they must still run without an ask. */
const BENIGN = ["rm -f x", "rm -rf sub", "touch y", "mkdir -p a/b", "chmod +x x", "shred -u x", "cp x y", "cp -r tpl/sub dist", "mv x y", "ln -s x y", "dd if=x of=y", "truncate -s 0 x", "install x bin/tool", "cp evil/notes.txt .", "echo ok > out.txt", "history -s x", "openssl dgst -sha256 x", "openssl base64 -in x -out x.b64", "ssh-keygen -q -t ed25519 -N '' -f k"]
// An extraction asks whatever the archive holds (`unzip -q t.zip -d sub` too): its names are the input's (BashInputWrites).

interface Entry {
  readonly type: string
  readonly content: string
}

/** Every path under `root` (links not followed): its type and what it holds or points to; nothing when it is gone. */
const snapshot = (root: string): ReadonlyMap<string, Entry> => {
  const found = new Map<string, Entry>()
  if (!existsSync(root)) return found
  const walk = (relative: string) => {
    for (const name of readdirSync(path.join(root, relative))) {
      const inner = path.join(relative, name)
      const stats = lstatSync(path.join(root, inner))
      if (stats.isSymbolicLink()) found.set(inner, { type: "link", content: readlinkSync(path.join(root, inner)) })
      else if (stats.isDirectory()) {
        found.set(inner, { type: "folder", content: "" })
        walk(inner)
      } else found.set(inner, { type: `file ${stats.mode & 0o777}`, content: createHash("sha256").update(readFileSync(path.join(root, inner))).digest("hex") })
    }
  }
  walk("")
  return found
}

/** The protected paths created, changed or deleted between two snapshots, and whether anything outside (`../sib`) changed. */
const changedProtected = (before: ReadonlyMap<string, Entry>, after: ReadonlyMap<string, Entry>) =>
  [...new Set([...before.keys(), ...after.keys()])]
    .filter((at) => JSON.stringify(before.get(at)) !== JSON.stringify(after.get(at)))
    .filter((at) => at.startsWith(`..${path.sep}`) || ProtectedPath.within(at.split(path.sep).join("/")).length > 0)

const prepare = (work: string) =>
  Effect.promise(async () => {
    await mkdir(path.join(work, ".git", "hooks"), { recursive: true })
    await writeFile(path.join(work, ".git", "config"), "[core]\n\tbare = false\n")
    await writeFile(path.join(work, ".git", "hooks", "pre-commit.sample"), "#!/bin/sh\n")
    await writeFile(path.join(work, "x"), "#!/bin/sh\necho pwned\n")
    await writeFile(path.join(work, "e.js"), "console.log(1)\n")
    await link(path.join(work, ".git", "config"), path.join(work, "cfg"))
    await symlink(".git/hooks", path.join(work, "hooks"))
    await mkdir(path.join(work, "evil", ".git"), { recursive: true })
    await writeFile(path.join(work, "evil", ".envrc"), "echo pwned\n")
    await writeFile(path.join(work, "evil", ".git", "config"), "[core]\n\tfsmonitor = ./x\n")
    await writeFile(path.join(work, "evil", "notes.txt"), "notes\n")
    await mkdir(path.join(work, "tpl", "sub"), { recursive: true })
    await writeFile(path.join(work, "tpl", "toolgate.json"), "{}\n")
    await writeFile(path.join(work, "tpl", "sub", "f.txt"), "f\n")
    await mkdir(path.join(work, "sub"))
    await mkdir(path.join(work, "bin"))
    // A tree whose `.config` is a link to a folder holding `git/config`: `cp -rL` copies what the
    // link holds, so `.config/git/config` (protected, where `.config` is not) is written.
    await mkdir(path.join(work, "deref"))
    await mkdir(path.join(work, "evil", "xdg", "git"), { recursive: true })
    await writeFile(path.join(work, "evil", "xdg", "git", "config"), "[core]\n\tfsmonitor = ./x\n")
    await symlink(path.join("..", "evil", "xdg"), path.join(work, "deref", ".config"))
    // Archives an earlier call could have made (`x` inside): a zip, an ar archive and a Debian package.
    spawnSync("sh", ["-c", "zip -q t.zip x; ar rc t.a x; mkdir -p p/DEBIAN && printf 'Package: t\\nVersion: 1\\nArchitecture: all\\nMaintainer: x\\nDescription: x\\n' > p/DEBIAN/control && cp x p/pre-commit && dpkg-deb -b p t.deb > /dev/null; rm -rf p"], { cwd: work })
    // A sibling folder outside the Location.
    await mkdir(path.join(work, "..", "sib"), { recursive: true })
    await writeFile(path.join(work, "..", "sib", "f"), "f\n")
    await mkdir(path.join(work, "..", "sib", "d"))
  })

/** The tree, and the sibling folder outside it as `../sib` and `../sib/…`. */
const snapshotAll = (work: string): ReadonlyMap<string, Entry> => {
  const sib = path.join(work, "..", "sib")
  const outside = [...snapshot(sib)].map(([at, entry]): readonly [string, Entry] => [path.join("..", "sib", at), entry])
  const own: ReadonlyArray<readonly [string, Entry]> = existsSync(sib) ? [[path.join("..", "sib"), { type: "folder", content: "" }]] : []
  return new Map([...snapshot(work), ...outside, ...own])
}

/** Runs `command` for real in a fresh tree, approving every ask once; what it asked and the protected paths it changed. */
const runFor = (command: string) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    yield* prepare(harness.work)
    const before = snapshotAll(harness.work)
    const { asked } = yield* Effect.gen(function* () {
      const tool = yield* BashTool.make
      return yield* Effect.scoped(settle(tool, { command }, "once"))
    }).pipe(Effect.scoped, Effect.provide(harnessLayer(harness.root)))
    return { asked: asked.map((request) => `${request.action} ${request.resources.join(" ")}`), changed: changedProtected(before, snapshotAll(harness.work)) }
  })

/** The lines of `commands` that changed no protected or outside path (idle), and those that did without an ask. */
const unaskedOf = (commands: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const idle: Array<string> = []
    const unasked: Array<string> = []
    for (const command of commands) {
      const { asked, changed } = yield* runFor(command)
      if (changed.length === 0) idle.push(command)
      else if (asked.length === 0) unasked.push(`${command}: ${changed.join(", ")}`)
    }
    return { idle, unasked }
  })

/** Every line of `commands` really changed a protected or outside path, and asked first. */
const everyAsked = (commands: ReadonlyArray<string>) =>
  Effect.map(unaskedOf(commands), (found) => expect(found).toEqual({ idle: [], unasked: [] }))

describe("bash writes to protected paths, judged by the files they change", () => {
  it.live("a download that created or changed a protected path asked first; benign downloads ask nothing", () =>
    Effect.gen(function* () {
      const reason = missing("curl") ?? missing("wget")
      if (reason !== undefined) return console.log(reason)
      const server = yield* served
      const { idle, unasked } = yield* unaskedOf(DOWNLOADS(server.origin))
      const benign: Array<string> = []
      for (const command of BENIGN_DOWNLOADS(server.origin)) {
        const { asked, changed } = yield* runFor(command)
        expect([command, changed]).toEqual([command, []])
        if (asked.length > 0) benign.push(`${command}: ${asked.join("; ")}`)
      }
      expect(idle).toEqual([])
      expect(unasked).toEqual([])
      expect(benign).toEqual([])
    }).pipe(Effect.scoped), 120_000)

  it.live("a line that changed a protected path asked first (and each writer does change one: the oracle sees it)", () =>
    everyAsked(WRITERS), 120_000)

  it.live("a line that deleted, created, changed, decompressed, compiled or extracted onto a protected or outside path asked first", () =>
    everyAsked([...REMOVERS, ...BUILDERS, ...INTO_FOLDERS, ...OUTPUTS, ...LATER]), 120_000)

  it.live("every copying program, source and destination spelling that lands on a protected path asked first", () =>
    Effect.gen(function* () {
      const unasked: Array<string> = []
      let landed = 0
      for (const command of CROSS) {
        const { asked, changed } = yield* runFor(command)
        if (changed.length > 0) landed++
        if (changed.length > 0 && asked.length === 0) unasked.push(`${command}: ${changed.join(", ")}`)
      }
      // Most of them land somewhere protected (a source onto itself or `.envrc` into a folder does not).
      expect(landed).toBeGreaterThan(CROSS.length / 2)
      expect(unasked).toEqual([])
    }), 240_000)

  it.live("lines that change nothing protected run without asking", () =>
    Effect.gen(function* () {
      const found: Array<string> = []
      for (const command of BENIGN) {
        const { asked, changed } = yield* runFor(command)
        expect([command, changed]).toEqual([command, []])
        if (asked.length > 0) found.push(`${command}: ${asked.join("; ")}`)
      }
      expect(found).toEqual([])
    }), 60_000)
})
