/**
 * grep: the real `grep` tool (`Tool.settle`, real permission gate, warm) over a generated tree of
 * 20 000 files / ~210 MB (bench/lib-search-tree.ts) against ripgrep spawned raw with the same
 * search arguments, collecting all of its `--json` output.
 * 1. A rare word (80 hits, under the default limit): both scan everything. Target ratio ≤ 1.2.
 * 2. A word with 1 000 000 hits, limit 100: the tool stops ripgrep after 101 hits, so it should
 *    take about what ripgrep needs for its first 100 hits, far less than ripgrep to completion.
 * Best of 7 after 2 warm-up runs, the two sides interleaved; the tool's matches are checked against ripgrep's.
 */
import { GrepTool } from "../src/tool/builtin/grep.js"
import { best, bestOfBoth, COMMON, COMMON_HITS, FILES, generate, MATCH, matchesOf, MB, RARE, RARE_HITS, rgAll, rgFirst, textOf, TREE, treeBytes, withTool } from "./lib-search-tree.js"

const ROUNDS = 7
const LIMIT = 100

/** The arguments the tool gives ripgrep for `pattern` over the whole tree. */
const args = (pattern: string) => GrepTool.ripgrepArgs({ pattern }, { path: TREE, directory: true }, undefined)


const generation = await generate()
const results = await withTool(GrepTool.make, async (settle) => {
  const [rareTool, rareRg] = await bestOfBoth(() => settle({ pattern: RARE }), () => rgAll(args(RARE)), ROUNDS)
  const output = rareTool.value.structured as GrepTool.Output
  const ours = output.matches.map((match) => `${match.path}:${match.line}`).sort()
  const theirs = matchesOf(rareRg.value)
  if (ours.length !== RARE_HITS || JSON.stringify(ours) !== JSON.stringify(theirs)) throw new Error(`the tool found ${ours.length} matches, ripgrep ${theirs.length}`)

  const [commonTool, first] = await bestOfBoth(() => settle({ pattern: COMMON, limit: LIMIT }), () => rgFirst(args(COMMON), MATCH, "\n", LIMIT), ROUNDS)
  const all = await best(() => rgAll(args(COMMON)), 2, 1)
  const common = commonTool.value.structured as GrepTool.Output
  if (common.matches.length !== LIMIT || !common.truncated || !textOf(commonTool.value).startsWith(GrepTool.Messages.found(LIMIT))) throw new Error("the common search was not cut at the limit")
  const hits = all.value.toString("utf8").split("\n").filter((line) => line.startsWith(MATCH)).length
  if (hits !== COMMON_HITS) throw new Error(`ripgrep found ${hits} hits, expected ${COMMON_HITS}`)
  return { rareTool, rareRg, commonTool, first, all }
})

const { rareTool, rareRg, commonTool, first, all } = results
console.log(`grep: ${FILES.toLocaleString("en")} files, ${(treeBytes() / MB).toFixed(0)} MB (${generation}), warm, best of ${ROUNDS}`)
console.log(`  rare word (${RARE_HITS} hits, default limit ${LIMIT})`)
console.log(`    GrepTool via Tool.settle              ${rareTool.ms.toFixed(0)} ms`)
console.log(`    rg --json, all output                 ${rareRg.ms.toFixed(0)} ms`)
console.log(`    ratio                                 ${(rareTool.ms / rareRg.ms).toFixed(2)} (target ≤ 1.2); same ${RARE_HITS} matches`)
console.log(`  common word (${COMMON_HITS.toLocaleString("en")} hits), limit ${LIMIT}`)
console.log(`    GrepTool via Tool.settle              ${commonTool.ms.toFixed(1)} ms`)
console.log(`    rg --json until the first ${LIMIT} hits   ${first.ms.toFixed(1)} ms (ratio ${(commonTool.ms / first.ms).toFixed(2)})`)
console.log(`    rg --json to completion               ${all.ms.toFixed(0)} ms (${(all.value.length / MB).toFixed(0)} MB of JSON; ${(all.ms / commonTool.ms).toFixed(0)}× the tool)`)
