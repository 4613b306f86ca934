/**
 * The waiting process's executable (`dist/cli/warm.cjs`, built by build/cli.mjs), started by a
 * `toolgate` command (cli/warm/client.ts) as `warm.cjs <socket folder> <data folder> <idle ms>`;
 * never by a person.
 */
import path from "node:path"
import { fileURLToPath } from "node:url"
import { WarmServer } from "./server.js"

const [folder, dataDir, idle] = process.argv.slice(2)
if (folder !== undefined && dataDir !== undefined) {
  WarmServer.closeInherited()
  void WarmServer.run({ directory: path.dirname(fileURLToPath(import.meta.url)), folder, dataDir, idleMs: Number(idle) > 0 ? Number(idle) : 300_000 })
}
