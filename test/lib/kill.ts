/**
 * Crash tests: run a TypeScript module snippet in a child Node process (through tsx, by absolute
 * URL, so no build is needed) and SIGKILL it `delay` ms after it prints `ready`.
 */
import { spawn } from "node:child_process"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const TSX = pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href

/** A module of the project as an import specifier a child can use. */
export const moduleUrl = (file: string): string => JSON.stringify(pathToFileURL(path.join(ROOT, file)).href)

/**
 * Resolves `"finished"` when the child printed `done` before the kill, `"killed"` otherwise;
 * rejects when it died any other way or printed a line starting `failed `.
 */
export const runAndKill = (script: string, delay: number) =>
  new Promise<"finished" | "killed">((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", TSX, "--input-type=module", "-e", script], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] })
    const output: string[] = []
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output.push(chunk)
      if (chunk.includes("ready")) setTimeout(() => child.kill("SIGKILL"), delay)
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => output.push(chunk))
    child.on("error", reject)
    child.on("exit", (code, signal) => {
      const text = output.join("")
      if (text.includes("done")) return resolve("finished")
      // A line of its own: a logged warning that mentions a failure is not the call failing.
      if (signal === "SIGKILL" && !/^failed /m.test(text)) return resolve("killed")
      reject(new Error(`child exited with ${code ?? signal}: ${text}`))
    })
  })
