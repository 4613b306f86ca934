/**
 * glob: the real `glob` tool (`Tool.settle`, real permission gate, warm) over a generated tree of
 * 20 000 files (bench/lib-search-tree.ts) against ripgrep spawned raw as
 * `rg --files --glob <pattern>`, collecting all output.
 * 1. "*.md" (80 files, under the default limit): both walk the whole tree. Target ratio ≤ 1.2.
 *    A raw `--glob` is an override that skips the ignore and hidden rules for the files it names,
 *    so it does less per file than the tool must; ripgrep run raw with the tool's own arguments
 *    (same rules) is shown too, to separate that from the tool's own overhead.
 * 2. "**\/*.ts" (19 920 files), limit 100: the tool stops ripgrep after 101 files; shown against
 *    ripgrep listing them all.
 * Best of 20 after 2 warm-up runs, the two sides interleaved; the tool's files are checked against ripgrep's.
 */
import { GlobTool } from "../src/tool/builtin/glob.js"
import { bestOfBoth, FILES, generate, RARE_HITS, rgAll, TREE, withTool } from "./lib-search-tree.js"

const ROUNDS = 20
const LIMIT = 100

const raw = (pattern: string) => ["--no-config", "--files", `--glob=${pattern}`, "--", TREE]
const lines = (output: Buffer) => output.toString("utf8").split("\n").filter((line) => line !== "").sort()

const generation = await generate()
const results = await withTool(GlobTool.make, async (settle) => {
  const [mdTool, mdRg] = await bestOfBoth(() => settle({ pattern: "*.md" }), () => rgAll(raw("*.md")), ROUNDS)
  const [mdTool2, mdSame] = await bestOfBoth(() => settle({ pattern: "*.md" }), () => rgAll(GlobTool.ripgrepArgs(TREE, "*.md", false)), ROUNDS)
  const files = (mdTool.value.structured as GlobTool.Output).files
  if (files.length !== RARE_HITS || JSON.stringify(files) !== JSON.stringify(lines(mdRg.value))) throw new Error("the tool and ripgrep listed different files")
  const [tsTool, tsRg] = await bestOfBoth(() => settle({ pattern: "**/*.ts", limit: LIMIT }), () => rgAll(raw("**/*.ts")), ROUNDS)
  const listed = tsTool.value.structured as GlobTool.Output
  if (listed.files.length !== LIMIT || !listed.truncated) throw new Error("the broad listing was not cut at the limit")
  return { mdTool, mdRg, mdTool2, mdSame, tsTool, tsRg }
})

const { mdTool, mdRg, mdTool2, mdSame, tsTool, tsRg } = results
console.log(`glob: ${FILES.toLocaleString("en")} files (${generation}), warm, best of ${ROUNDS}`)
console.log(`  "*.md" (${RARE_HITS} files, default limit ${LIMIT})`)
console.log(`    GlobTool via Tool.settle          ${mdTool.ms.toFixed(1)} ms`)
console.log(`    rg --files --glob, all output     ${mdRg.ms.toFixed(1)} ms`)
console.log(`    ratio                             ${(mdTool.ms / mdRg.ms).toFixed(2)} (target ≤ 1.2); same ${RARE_HITS} files`)
console.log(`    rg with the tool's arguments      ${mdSame.ms.toFixed(1)} ms (GlobTool ${mdTool2.ms.toFixed(1)} ms in the same rounds: ratio ${(mdTool2.ms / mdSame.ms).toFixed(2)})`)
console.log(`  "**/*.ts" (${(FILES - RARE_HITS).toLocaleString("en")} files), limit ${LIMIT}`)
console.log(`    GlobTool via Tool.settle          ${tsTool.ms.toFixed(1)} ms`)
console.log(`    rg --files --glob, all output     ${tsRg.ms.toFixed(1)} ms (ratio ${(tsTool.ms / tsRg.ms).toFixed(2)})`)
