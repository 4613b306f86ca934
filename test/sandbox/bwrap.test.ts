/**
 * The bash sandbox against the real thing (issue 20): real bwrap, real bash, real files,
 * sockets and processes. Inside `workspace-write` nothing is written outside the Location (a
 * path outside, `~/.bashrc`, a link in the Location pointing out, `cd /; touch x`), secrets and
 * toolgate's data are not readable, the network is off unless it is turned on, ordinary work
 * (git, npm, cc) runs, a Unix socket of the host cannot be reached, and a command that spawns a tree of processes is ended whole by its
 * timeout. `read-only` writes nothing in the Location either. A bwrap that cannot be found is a
 * failure naming it, and nothing runs.
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises"
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, type Layer, type Scope } from "effect"
import { SandboxBwrap } from "../../src/sandbox/bwrap.js"
import { SandboxMode } from "../../src/sandbox/mode.js"
import { BashTool } from "../../src/tool/builtin/bash.js"
import { BashRun } from "../../src/tool/builtin/bash/run.js"
import { globalConfig } from "../lib/config.js"
import { type Answer, harnessLayer, makeHarness, settle, textOf } from "../lib/file-tools.js"
import { guardMarker, marker, withMarker } from "../lib/process-group.js"

type Services = Layer.Success<ReturnType<typeof harnessLayer>> | Scope.Scope
type Harness = Effect.Success<typeof makeHarness>

/** Runs `body` with a bash tool whose config is `config` (a global file's body). */
const withSandbox = <A, E>(config: unknown, body: (tool: Effect.Success<typeof BashTool.make>, harness: Harness) => Effect.Effect<A, E, Services>, env?: NodeJS.ProcessEnv) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    return yield* Effect.gen(function* () {
      const tool = yield* BashTool.makeWith(env === undefined ? {} : { env })
      return yield* body(tool, harness)
    }).pipe(Effect.scoped, Effect.provide(harnessLayer(harness.root, globalConfig(config))))
  })

const run = (tool: Effect.Success<typeof BashTool.make>, input: unknown, answer: Answer = "once") =>
  Effect.scoped(Effect.map(settle(tool, input, answer), ({ result, asked }) => ({ result, asked, text: textOf(result as never) })))

const WORKSPACE = { bash: { sandbox: "workspace-write" } }
const refused = /Read-only file system|Permission denied/

describe("the bash sandbox (real bwrap)", () => {
  it.live("workspace-write: writes land in the Location only; outside, ~/.bashrc, a link pointing out and cd / all fail and leave nothing", () =>
    withSandbox(WORKSPACE, (tool, { root, work, home }) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => symlink(path.join(root, "linked.txt"), path.join(work, "link.txt")))
        const attempts = [`echo x > ${path.join(root, "outside.txt")}`, "echo x >> ~/.bashrc", "echo x > link.txt", "cd /; touch x", "touch /etc/toolgate-sandbox-test"]
        for (const command of attempts) {
          const { text } = yield* run(tool, { command })
          expect(text, command).toMatch(refused)
        }
        expect(existsSync(path.join(root, "outside.txt"))).toBe(false)
        expect(existsSync(path.join(home, ".bashrc"))).toBe(false)
        expect(existsSync(path.join(root, "linked.txt"))).toBe(false)
        expect(existsSync("/x")).toBe(false)
        expect(existsSync("/etc/toolgate-sandbox-test")).toBe(false)
        const { text } = yield* run(tool, { command: 'echo inside > made.txt && mkdir -p sub && echo deep > sub/deep.txt && echo tmp > "$TMPDIR/t" && cat "$TMPDIR/t" && ! touch /tmp/t 2>/dev/null' })
        expect(text.startsWith(`tmp\n\n${BashRun.Messages.exited(0)}`), text).toBe(true)
        expect(yield* Effect.promise(() => readFile(path.join(work, "made.txt"), "utf8"))).toBe("inside\n")
        expect(yield* Effect.promise(() => readFile(path.join(work, "sub", "deep.txt"), "utf8"))).toBe("deep\n")
      }),
    ))

  it.live("workspace-write: ~/.ssh, toolgate's data folder and a path a rule denies reading are not readable; the Location's .git is read-only", () =>
    withSandbox({ ...WORKSPACE, permission: [{ action: "read", resource: "secrets/*", effect: "deny" }, { action: "read", resource: "/etc/hostname", effect: "deny" }] }, (tool, { root, work, home }) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => mkdir(path.join(home, ".ssh"), { recursive: true }))
        yield* Effect.promise(() => writeFile(path.join(home, ".ssh", "id_rsa"), "PRIVATE KEY\n"))
        yield* Effect.promise(() => mkdir(path.join(work, "secrets")))
        yield* Effect.promise(() => writeFile(path.join(work, "secrets", "token"), "TOKEN\n"))
        yield* Effect.promise(() => mkdir(path.join(work, ".git"), { recursive: true }))
        const ssh = yield* run(tool, { command: "cat ~/.ssh/id_rsa" })
        expect(ssh.text).not.toContain("PRIVATE KEY")
        expect(ssh.text).toContain(BashRun.Messages.exited(1))
        const data = yield* run(tool, { command: `ls -A ${path.join(root, "data")} 2>/dev/null | wc -l` })
        expect(data.text.startsWith(`0\n\n${BashRun.Messages.exited(0)}`), data.text).toBe(true)
        // The database exists outside the sandbox all the same.
        expect((yield* Effect.promise(() => readdir(path.join(root, "data")))).length).toBeGreaterThan(0)
        // A file outside /tmp a rule denies reading: covered, its content out of reach.
        const hostname = (yield* Effect.promise(() => readFile("/etc/hostname", "utf8"))).trim()
        const denied = yield* run(tool, { command: "cat /etc/hostname" })
        expect(denied.text).not.toContain(hostname)
        expect(denied.text).toContain(BashRun.Messages.exited(1))
        const secret = yield* run(tool, { command: "cat secrets/token" })
        expect(secret.text).not.toContain("TOKEN")
        expect((yield* run(tool, { command: "echo hook > .git/hooks-planted" })).text).toMatch(refused)
        expect(existsSync(path.join(work, ".git", "hooks-planted"))).toBe(false)
      }),
    ))

  it.live("the network is off inside unless bash.network is true", () =>
    Effect.gen(function* () {
      const server = yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<ReturnType<typeof createServer>>((resolve) => {
          const made = createServer((socket) => socket.end("hello from outside\n"))
          made.listen(0, "127.0.0.1", () => resolve(made))
        })),
        (made) => Effect.promise(() => new Promise<void>((resolve) => made.close(() => resolve()))),
      )
      const port = (server.address() as AddressInfo).port
      const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`
      const off = yield* withSandbox(WORKSPACE, (tool) => run(tool, { command }))
      expect(off.text).not.toContain("hello from outside")
      expect(off.text).toContain(BashRun.Messages.exited(1))
      const on = yield* withSandbox({ bash: { sandbox: "workspace-write", network: true } }, (tool) => run(tool, { command }))
      expect(on.text.startsWith(`hello from outside\n\n${BashRun.Messages.exited(0)}`), on.text).toBe(true)
    }))

  it.live("a Unix socket the host listens on cannot be reached, even in the Location or with the network on; socketpair between the command's own processes works", () =>
    Effect.gen(function* () {
      const harness = yield* makeHarness
      const socketPath = path.join(harness.work, "agent.sock")
      const server = yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<ReturnType<typeof createServer>>((resolve) => {
          const made = createServer((socket) => socket.end("hello from a host daemon\n"))
          made.listen(socketPath, () => resolve(made))
        })),
        (made) => Effect.promise(() => new Promise<void>((resolve) => made.close(() => resolve()))),
      )
      expect(server.listening).toBe(true)
      const connect = `node -e 'require("net").connect(process.argv[1]).on("data", (d) => process.stdout.write(d)).on("error", (e) => { console.log(e.code); process.exit(3) })' agent.sock`
      const ipc = `echo 'process.send("pong")' > "$TMPDIR/child.js" && node -e 'require("child_process").fork(process.argv[1]).on("message", (m) => console.log(m))' "$TMPDIR/child.js"`
      const inBox = (config: unknown) =>
        Effect.gen(function* () {
          const tool = yield* BashTool.makeWith({})
          return { connected: (yield* run(tool, { command: connect })).text, piped: (yield* run(tool, { command: ipc })).text, fd: (yield* run(tool, { command: "[ -e /proc/self/fd/3 ] && echo open || echo closed" })).text }
        }).pipe(Effect.scoped, Effect.provide(harnessLayer(harness.root, globalConfig(config))))
      for (const config of [WORKSPACE, { bash: { sandbox: "workspace-write", network: true } }, { bash: { sandbox: "read-only" } }]) {
        const { connected, piped, fd } = yield* inBox(config)
        expect(connected, JSON.stringify(config)).toBe(`EACCES\n\n${BashRun.Messages.exited(3)}`)
        expect(piped, JSON.stringify(config)).toMatch(/^pong\n/)
        // The descriptor bwrap read the filter from is not the command's.
        expect(fd).toBe(`closed\n\n${BashRun.Messages.exited(0)}`)
      }
      // Outside the sandbox the same command reaches the daemon: the refusal is the sandbox's.
      const open = yield* Effect.gen(function* () {
        const tool = yield* BashTool.makeWith({})
        return (yield* run(tool, { command: connect })).text
      }).pipe(Effect.scoped, Effect.provide(harnessLayer(harness.root, globalConfig({}))))
      expect(open).toBe(`hello from a host daemon\n\n${BashRun.Messages.exited(0)}`)
    }))

  it.live("git status, npm --version and compiling a C file in the Location work inside", () =>
    withSandbox(WORKSPACE, (tool, { work }) =>
      Effect.gen(function* () {
        execFileSync("git", ["init", "-q", work])
        yield* Effect.promise(() => writeFile(path.join(work, "hello.c"), '#include <stdio.h>\nint main(void) { puts("compiled"); return 0; }\n'))
        const git = yield* run(tool, { command: "git status --short" })
        expect(git.text).toBe(`?? hello.c\n\n${BashRun.Messages.exited(0)}`)
        const npm = yield* run(tool, { command: "npm --version" })
        expect(npm.text).toMatch(new RegExp(`^\\d+\\.\\d+\\.\\d+\\n\\n${BashRun.Messages.exited(0).replace(".", "\\.")}$`))
        const cc = yield* run(tool, { command: "cc -o hello hello.c && ./hello" })
        expect(cc.text).toBe(`compiled\n\n${BashRun.Messages.exited(0)}`)
      }),
    ))

  it.live("a command that spawns a tree of processes (some in sessions of their own) is ended whole by its timeout", () =>
    withSandbox(WORKSPACE, (tool) =>
      Effect.gen(function* () {
        const token = marker()
        yield* guardMarker(token)
        // A bounded fork bomb: each level forks two more, some leave with setsid; 62 sleepers.
        const bomb = `b() { [ "$1" -gt 0 ] || exec sleep 300.${token}; b $(( $1 - 1 )) & setsid sh -c "sleep 301.${token}" & b $(( $1 - 1 )); wait; }; b 5`
        const { text } = yield* run(tool, { command: bomb, timeout: 1_500 })
        expect(text).toContain(BashRun.Messages.timedOut(1_500))
        expect(withMarker(token)).toEqual([])
      }),
    ))

  it.live("read-only: nothing is written in the Location either; the private temporary directory is still writable", () =>
    withSandbox({ bash: { sandbox: "read-only" } }, (tool, { work }) =>
      Effect.gen(function* () {
        expect((yield* run(tool, { command: "echo x > made.txt" })).text).toMatch(refused)
        expect(existsSync(path.join(work, "made.txt"))).toBe(false)
        expect((yield* run(tool, { command: 'echo t > "$TMPDIR/t" && cat "$TMPDIR/t"' })).text).toBe(`t\n\n${BashRun.Messages.exited(0)}`)
      }),
    ))

  it.live("a bwrap that cannot be found fails the call naming it, before anything is asked or run", () =>
    withSandbox(
      WORKSPACE,
      (tool, { work }) =>
        Effect.gen(function* () {
          const { result, asked, text } = yield* run(tool, { command: "echo ran > ran.txt" })
          expect(result._tag).toBe("Failure")
          expect(text).toBe(SandboxBwrap.Messages.missing("/nonexistent/bwrap"))
          expect(asked).toEqual([])
          expect(existsSync(path.join(work, "ran.txt"))).toBe(false)
        }),
      { ...process.env, [SandboxBwrap.ENV]: "/nonexistent/bwrap" },
    ))

  it.live("the request says the command runs sandboxed, and a when: sandboxed allow lets it run without asking", () =>
    Effect.gen(function* () {
      const allowSandboxed = { action: "bash", resource: "*", effect: "allow", when: "sandboxed" }
      const boxed = yield* withSandbox({ ...WORKSPACE, permission: [{ action: "bash", resource: "*", effect: "ask" }] }, (tool, { work }) =>
        Effect.map(run(tool, { command: "echo hi" }), (outcome) => ({ ...outcome, work })),
      )
      expect(boxed.asked.map((request) => request.metadata.sandbox)).toEqual([SandboxMode.Messages.shown("workspace-write", boxed.work, false)])
      const allowed = yield* withSandbox({ ...WORKSPACE, permission: [{ action: "bash", resource: "*", effect: "ask" }, allowSandboxed] }, (tool) => run(tool, { command: "echo hi" }))
      expect(allowed.asked).toEqual([])
      expect(allowed.text).toBe(`hi\n\n${BashRun.Messages.exited(0)}`)
      // The same rule without the sandbox allows nothing: the ask stands.
      const plain = yield* withSandbox({ permission: [{ action: "bash", resource: "*", effect: "ask" }, allowSandboxed] }, (tool) => run(tool, { command: "echo hi" }))
      expect(plain.asked.map((request) => request.action)).toEqual(["bash"])
      expect(plain.asked[0]?.metadata.sandbox).toBeUndefined()
    }))

  it.live("a bash_network rule that asks asks first, and the command gets the network once allowed", () =>
    withSandbox({ ...WORKSPACE, permission: [{ action: "bash", resource: "*", effect: "allow" }, { action: "bash_network", resource: "curl *", effect: "ask" }] }, (tool) =>
      Effect.gen(function* () {
        const asking = yield* run(tool, { command: "curl --version" })
        expect(asking.asked.map((request) => request.action)).toEqual([SandboxMode.NETWORK_ACTION])
        const quiet = yield* run(tool, { command: "echo no network asked" })
        expect(quiet.asked).toEqual([])
        expect(quiet.text).toBe(`no network asked\n\n${BashRun.Messages.exited(0)}`)
      }),
    ))
})
