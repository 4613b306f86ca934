/** Empties `dist/` before a build, so a file removed from `src/` is not shipped from an old build. */
import { rmSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

rmSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "dist"), { recursive: true, force: true })
