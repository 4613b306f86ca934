/**
 * sandbox: what the bubblewrap sandbox adds to a bash command (issue 20), in one run.
 * 1. `echo hi` through BashRun with and without the sandbox's bwrap in front: the added ms per
 *    call (target ≤ 15 ms). 30 rounds after 3 warm-up, interleaved, medians.
 * 2. `npm test`-sized work: compiling 200 small C files with `cc` in a working directory, with
 *    and without the sandbox (target ≤ 5 % more). 5 rounds after 1 warm-up, interleaved, medians.
 * The baseline is the same command run the way toolgate runs it unsandboxed; the sandboxed side
 * pays bwrap's namespaces and mounts (the one-time probe is done before timing).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { Effect } from "effect"
import { SandboxBwrap } from "../src/sandbox/bwrap.js"
import { BashRun } from "../src/tool/builtin/bash/run.js"

const root = await mkdtemp(path.join(os.tmpdir(), "toolgate-bench-sandbox-"))
const work = path.join(root, "work")
await mkdir(path.join(work, "src"), { recursive: true })
await mkdir(path.join(work, "out"))
for (let index = 0; index < 200; index++)
  await writeFile(path.join(work, "src", `f${index}.c`), `#include <string.h>\nint f${index}(const char *s) { int n = 0; for (; *s; s++) n += (int)strlen(s) * ${index}; return n; }\n`)

const { binary, filter } = await Effect.runPromise(SandboxBwrap.probe(process.env))
const sandbox = { binary, filter, args: SandboxBwrap.args({ mode: "workspace-write", location: work, cwd: work, home: os.homedir(), hidden: [], network: false }) }

const once = async (command: string, boxed: boolean) => {
  const started = performance.now()
  const result = await Effect.runPromise(
    BashRun.run({ command, cwd: work, timeout: 600_000, shell: "/bin/bash", spoolPath: path.join(root, `spool-${Math.random()}`), ...(boxed ? { sandbox } : {}) }),
  )
  if (result.exit !== 0) throw new Error(`${command} exited ${result.exit}: ${result.output}`)
  return performance.now() - started
}

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

const compare = async (command: string, rounds: number, warm: number) => {
  for (let index = 0; index < warm; index++) {
    await once(command, false)
    await once(command, true)
  }
  const plain: number[] = []
  const boxed: number[] = []
  for (let index = 0; index < rounds; index++) {
    if (index % 2 === 0) {
      plain.push(await once(command, false))
      boxed.push(await once(command, true))
    } else {
      boxed.push(await once(command, true))
      plain.push(await once(command, false))
    }
  }
  return { plain: median(plain), boxed: median(boxed) }
}

const echo = await compare("echo hi", 30, 3)
const build = await compare("for f in src/*.c; do cc -O0 -c \"$f\" -o \"out/$(basename \"$f\" .c).o\"; done", 5, 1)
await rm(root, { recursive: true, force: true })

console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`)
console.log(`echo hi: unsandboxed ${echo.plain.toFixed(2)} ms, sandboxed ${echo.boxed.toFixed(2)} ms, added ${(echo.boxed - echo.plain).toFixed(2)} ms (target ≤ 15 ms), ratio ${(echo.boxed / echo.plain).toFixed(2)}×`)
console.log(`cc of 200 files: unsandboxed ${build.plain.toFixed(0)} ms, sandboxed ${build.boxed.toFixed(0)} ms, ratio ${(build.boxed / build.plain).toFixed(3)}× (${(((build.boxed - build.plain) / build.plain) * 100).toFixed(1)} %, target ≤ 5 %)`)
