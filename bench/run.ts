/**
 * `npm run bench -- <name>` runs `bench/<name>.ts`. Each benchmark compares against an external
 * baseline in the same run and prints the ratio; results are recorded in docs/benchmarks.md.
 */
import { readdirSync } from "node:fs"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const here = path.dirname(fileURLToPath(import.meta.url))
const available = readdirSync(here).filter((file) => file.endsWith(".ts") && file !== "run.ts" && !file.startsWith("lib")).map((file) => file.slice(0, -3))
const [name, ...rest] = process.argv.slice(2)

if (name === undefined || !available.includes(name)) {
  console.error(`Usage: npm run bench -- <${available.join("|")}>`)
  process.exit(2)
}
process.argv = [process.argv[0] as string, path.join(here, `${name}.ts`), ...rest]
await import(pathToFileURL(path.join(here, `${name}.ts`)).href)
