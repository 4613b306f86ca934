/**
 * What a waiting process must share with its caller (cli/warm/fingerprint.ts): the variables read
 * at start count, others do not; and a caller in another user and pid namespace (bubblewrap, as a
 * sandbox runs it, with every file of the host in view, the socket included) never hands its
 * command over: it runs in its own process, and leaves no waiting process behind in the sandbox
 * (bubblewrap's init waits for every process in it: the call would not end).
 */
import { execFileSync } from "node:child_process"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WarmFingerprint } from "../../../src/cli/warm/fingerprint.js"
import { BIN } from "../../lib/cli-project.js"
import { warmProject } from "../../lib/warm.js"

const BWRAP = "/usr/bin/bwrap"

/** Whether bubblewrap can make a user namespace here. */
const bwrapWorks = (() => {
  try {
    execFileSync(BWRAP, ["--dev-bind", "/", "/", "--unshare-user", "--unshare-pid", "true"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()

describe("WarmFingerprint", () => {
  it("counts the variables a process reads at start, and no other", () => {
    const base = { PATH: "/usr/bin", HOME: "/h", LANG: "C.UTF-8" }
    const of = (env: Record<string, string>) => WarmFingerprint.of("build", env)
    expect(of(base)).toBeDefined()
    expect(of({ ...base, PATH: "/bin", HOME: "/other", FOO: "x" })).toBe(of(base))
    for (const variable of ["LANG", "NODE_OPTIONS", "LD_PRELOAD", "LC_ALL", "TZ", "NODE_EXTRA_CA_CERTS", "GLIBC_TUNABLES"]) expect(of({ ...base, [variable]: "changed" })).not.toBe(of(base))
    expect(WarmFingerprint.of("another build", base)).not.toBe(of(base))
    expect(WarmFingerprint.startVariables({ ...base, NODE_OPTIONS: "--x", LD_PRELOAD: "/l.so", FOO: "x" })).toEqual({ LANG: "C.UTF-8", NODE_OPTIONS: "--x", LD_PRELOAD: "/l.so" })
  })

  it("names a fingerprint with 16 hex digits, another for another", () => {
    expect(WarmFingerprint.name("a")).toMatch(/^[0-9a-f]{16}$/)
    expect(WarmFingerprint.name("a")).not.toBe(WarmFingerprint.name("b"))
  })

  it.live.skipIf(!bwrapWorks)(
    "keeps a caller in other namespaces in its own process, though the socket is in view, and starts no waiting process in there",
    () =>
      Effect.gen(function* () {
        const { work, env, bash, untilWaiting } = yield* warmProject()
        yield* untilWaiting()
        expect((yield* bash("true")).waiting).toBe(true)
        // Where the command ran shows in its own NSpid: two pids inside the sandbox's pid namespace, one outside.
        const inside = execFileSync(BWRAP, ["--dev-bind", "/", "/", "--unshare-user", "--unshare-pid", "--chdir", work, process.execPath, BIN, "call", "bash", JSON.stringify({ command: "grep NSpid /proc/self/status" })], { env, encoding: "utf8", timeout: 60_000 })
        expect(inside).toMatch(/^NSpid:\s+\d+\s+\d+\n/)
      }),
    120_000,
  )
})
