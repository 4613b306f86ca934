/** toolgate's own version, read once from its package.json (one folder above `src/` and `dist/`). */
export * as Version from "./version.js"

import { createRequire } from "node:module"

const manifest = createRequire(import.meta.url)("../package.json") as { readonly version: string }

export const current: string = manifest.version
