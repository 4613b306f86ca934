/**
 * A real racer against the write path of write, edit and apply_patch: a child process swaps the
 * folder `d` with a link `l` to a folder outside the Location (renameat2 RENAME_EXCHANGE, through
 * python3's ctypes) in a tight loop while the tool writes into `d` again and again. Whatever each
 * call answers, nothing may ever appear outside and no temp file may be left anywhere. Bounded by
 * `ATTEMPTS` calls or `DEADLINE_MS`; the assertions do not depend on timing.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { FileMutation } from "../../../src/location/file-mutation.js"
import { ApplyPatchTool } from "../../../src/tool/builtin/apply-patch.js"
import { EditTool } from "../../../src/tool/builtin/edit.js"
import { WriteTool } from "../../../src/tool/builtin/write.js"
import type { Tool } from "../../../src/tool/tool.js"
import { harnessLayer, makeHarness, settle } from "../../lib/file-tools.js"

const ATTEMPTS = 200
const DEADLINE_MS = 10_000

/** Swaps argv[1] and argv[2] until SIGTERM, then leaves them as they were and prints the count. */
const RACER = `
import ctypes, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
state = {"stop": False}
signal.signal(signal.SIGTERM, lambda *_: state.update(stop=True))
swaps = 0
print("ready", flush=True)
while not state["stop"]:
    if libc.renameat2(-100, a, -100, b, 2) != 0:
        sys.exit(100 + ctypes.get_errno())
    swaps += 1
if swaps % 2 == 1:
    libc.renameat2(-100, a, -100, b, 2)
print(swaps, flush=True)
`

const canRace = process.platform === "linux" && spawnSync("python3", ["-c", "import ctypes; ctypes.CDLL(None).renameat2"]).status === 0

interface Racer {
  readonly child: ChildProcess
  readonly output: string[]
}

const startRacer = (a: string, b: string) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<Racer>((resolve, reject) => {
          const child = spawn("python3", ["-c", RACER, a, b], { stdio: ["ignore", "pipe", "inherit"] })
          const output: string[] = []
          child.stdout.setEncoding("utf8")
          child.stdout.on("data", (chunk: string) => {
            output.push(...chunk.split("\n").filter((line) => line !== ""))
            if (output[0] === "ready") resolve({ child, output })
          })
          child.on("error", reject)
        }),
    ),
    (racer) => Effect.sync(() => racer.child.exitCode === null && racer.child.kill("SIGKILL")),
  )

/** Stops the racer; the number of swaps it made. */
const stopRacer = (racer: Racer) =>
  Effect.promise(
    () =>
      new Promise<{ swaps: number; code: number | null }>((resolve) => {
        racer.child.on("exit", (code) => resolve({ swaps: Number(racer.output[1]), code }))
        racer.child.kill("SIGTERM")
      }),
  )

/** Every path under `root` (links not followed), relative. */
const tree = async (root: string): Promise<ReadonlyArray<string>> => {
  const found: string[] = []
  const walk = async (folder: string): Promise<void> => {
    for (const name of (await readdir(folder)).sort()) {
      const full = path.join(folder, name)
      found.push(path.relative(root, full))
      if ((await lstat(full)).isDirectory()) await walk(full)
    }
  }
  await walk(root)
  return found
}

const isTemp = (entry: string) => path.basename(entry).startsWith(FileMutation.TEMP_PREFIX)

/** Every file under `root` with its content, links not followed. */
const contents = async (root: string) =>
  Promise.all((await tree(root)).map(async (entry) => [entry, (await lstat(path.join(root, entry))).isFile() ? await readFile(path.join(root, entry), "utf8") : "(not a file)"] as const))

/**
 * Sets up `work/d` (holding `f` and the `names` given) and `work/l` → `<root>/outside` (holding the
 * same `names`, with other content), races them while `call(i)` runs up to ATTEMPTS times, and
 * checks that the outside folder is exactly as it was and no temp file is left.
 */
const race = <A, E>(make: Effect.Effect<Tool.AnyTool, E, A>, call: (index: number) => unknown, names: ReadonlyArray<string> = []) =>
  Effect.gen(function* () {
    const { root, work } = yield* makeHarness
    const outside = path.join(root, "outside")
    yield* Effect.promise(async () => {
      await mkdir(outside)
      await mkdir(path.join(work, "d"))
      await writeFile(path.join(work, "d", "f"), "start\n")
      for (const name of names) await writeFile(path.join(work, "d", name), "inside\n")
      for (const name of names) await writeFile(path.join(outside, name), "outside\n")
      await symlink(outside, path.join(work, "l"))
    })
    const before = yield* Effect.promise(() => contents(outside))
    const outcomes = yield* Effect.scoped(
      Effect.gen(function* () {
        const tool = yield* make
        const racer = yield* startRacer(path.join(work, "d"), path.join(work, "l"))
        const started = Date.now()
        const tags: string[] = []
        for (let index = 0; index < ATTEMPTS && Date.now() - started < DEADLINE_MS; index++) {
          const { result } = yield* settle(tool, call(index))
          tags.push(result._tag)
        }
        return { tags, ...(yield* stopRacer(racer)) }
      }),
    ).pipe(Effect.provide(harnessLayer(root))) as Effect.Effect<{ tags: string[]; swaps: number; code: number | null }>
    expect(outcomes.code).toBe(0)
    expect(outcomes.swaps).toBeGreaterThan(0)
    // The racer left d a folder and l the link again.
    expect((yield* Effect.promise(() => lstat(path.join(work, "l")))).isSymbolicLink()).toBe(true)
    const after = yield* Effect.promise(() => contents(outside))
    // Compared as the differences, so a failure lists only what changed outside.
    expect([...after.filter((entry) => !before.some((seen) => seen[0] === entry[0] && seen[1] === entry[1])), ...before.filter((entry) => !after.some((seen) => seen[0] === entry[0])).map(([name]) => [name, "(removed)"])]).toEqual([])
    expect((yield* Effect.promise(() => tree(root))).filter(isTemp)).toEqual([])
    return { outcomes, work }
  })

describe("the write path under a racing folder swap", () => {
  it.live.skipIf(!canRace)("write never creates anything outside, new folders included, and leaves no temp file", () =>
    Effect.gen(function* () {
      const { work } = yield* race(WriteTool.make, (index) => ({ path: index % 2 === 0 ? "d/f" : `d/new${index}/f`, content: `write ${index}\n` }))
      const content = yield* Effect.promise(() => readFile(path.join(work, "d", "f"), "utf8"))
      expect(content === "start\n" || /^write \d+\n$/.test(content)).toBe(true)
    }), 60_000)

  it.live.skipIf(!canRace)("edit never writes outside and leaves no temp file", () =>
    Effect.gen(function* () {
      yield* race(EditTool.make, () => ({ path: "d/f", oldString: "\n", newString: "+\n", replaceAll: true }))
    }), 60_000)

  it.live.skipIf(!canRace)("apply_patch never adds, updates or moves anything outside and leaves no temp file", () =>
    Effect.gen(function* () {
      const names = Array.from({ length: ATTEMPTS }, (_, index) => [`m${index}`, `x${index}`]).flat()
      yield* race(
        ApplyPatchTool.make,
        (index) => ({
          patchText: [
            "*** Begin Patch",
            `*** Add File: d/added${index}/a.txt`,
            "+added",
            "*** Update File: d/f",
            "@@",
            "+more",
            `*** Update File: d/m${index}`,
            `*** Move to: d/moved${index}`,
            "@@",
            "-inside",
            "+moved",
            `*** Delete File: d/x${index}`,
            "*** End Patch",
          ].join("\n"),
        }),
        names,
      )
    }), 60_000)
})
