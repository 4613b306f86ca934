/**
 * A person's terminal reaches a command run by a waiting process (cli/warm/): its prompt, its
 * colours and the answer typed are the caller's, relayed. The built CLI under util-linux
 * `script`; input is typed only after the question appears. While the question waits, the
 * waiting process is the one holding the project's database open: it runs the call.
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { readFile, readlink, readdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ExitCode } from "../../../src/cli/exit-code.js"
import { OnAsk } from "../../../src/cli/on-ask.js"
import { Directories } from "../../../src/directories.js"
import { EditTool } from "../../../src/tool/builtin/edit.js"
import { BIN } from "../../lib/cli-project.js"
import { ALLOW_ALL, waitingProcesses, warmProject } from "../../lib/warm.js"

const SCRIPT = "/usr/bin/script"

/** The files `pid` holds open. */
const openFiles = (pid: number) =>
  Effect.promise(async () => {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [])
    return Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")))
  })

describe.skipIf(!existsSync(SCRIPT))("a waiting process at a person's terminal", () => {
  it.live(
    "asks the question at the caller's terminal and acts on the answer typed there",
    () =>
      Effect.gen(function* () {
        const { root, work, env, untilWaiting } = yield* warmProject({ "a.txt": "one\ntwo\n" }, { ...ALLOW_ALL, edit: { "*": "ask" } })
        yield* untilWaiting()
        const [waiting] = yield* Effect.promise(() => waitingProcesses(root))
        const terminal = spawn(SCRIPT, ["-q", "-e", "-c", 'exec "$TOOLGATE_PTY_NODE" "$TOOLGATE_PTY_BIN" call edit "$TOOLGATE_PTY_INPUT"', "/dev/null"], {
          cwd: work,
          env: { ...env, SHELL: "/bin/sh", TOOLGATE_PTY_NODE: process.execPath, TOOLGATE_PTY_BIN: BIN, TOOLGATE_PTY_INPUT: JSON.stringify({ path: "a.txt", oldString: "two", newString: "2" }) },
          stdio: ["pipe", "pipe", "pipe"],
        })
        yield* Effect.addFinalizer(() => Effect.sync(() => terminal.exitCode === null && terminal.kill("SIGKILL")))
        const shown = { text: "" }
        const asked = new Promise<void>((resolve) =>
          terminal.stdout.setEncoding("utf8").on("data", (chunk: string) => {
            shown.text += chunk
            if (shown.text.includes(OnAsk.Messages.question)) resolve()
          }),
        )
        const closed = new Promise<number | null>((resolve) => terminal.on("close", resolve))
        yield* Effect.promise(() => asked)
        const held = yield* openFiles(waiting ?? -1)
        expect(held).toContain(path.join(root, "data", Directories.DATABASE_FILE))
        terminal.stdin.write("o\n")
        expect(yield* Effect.promise(() => closed)).toBe(ExitCode.SUCCESS)
        const plain = shown.text.replace(/\u001b\[[0-9;]*m/g, "").replaceAll("\r", "")
        expect(plain).toContain("Permission requested: edit a.txt")
        expect(plain).toContain(EditTool.Messages.edited("a.txt", 1))
        // Coloured: the caller's standard error is a terminal.
        expect(shown.text).toContain("\u001b[")
        expect(yield* Effect.promise(() => readFile(path.join(work, "a.txt"), "utf8"))).toBe("one\n2\n")
      }),
    120_000,
  )
})
