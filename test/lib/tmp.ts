/** Temporary directories that are removed when the test's scope closes. */
import { mkdtemp, rm } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { Effect } from "effect"

export const tmpdir = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(path.join(os.tmpdir(), "toolgate-test-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true })),
)
