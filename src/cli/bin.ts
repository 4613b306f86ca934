#!/usr/bin/env node
/**
 * The `toolgate` executable: runs the CLI on this process's arguments and exits with its code.
 * Help and version need nothing but the specs. A command goes to a waiting process that has its
 * code loaded when there is one (cli/warm/client.ts); else it runs here, from the bundle when
 * there is one (cli/bundle.ts), else from its modules.
 */
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { Bundle } from "./bundle.js"
import type { Command } from "./command.js"
import { Cli } from "./main.js"
import { WarmClient } from "./warm/client.js"
import { Directories } from "../directories.js"

const argv = process.argv.slice(2)
const local = (name: string) => (Bundle.load({ command: name })?.load ?? Cli.loadModules)(name)

/** The command `name`, run by a waiting process, or here when none takes it. */
const handedOff =
  (name: string): Command.Run =>
  async (parsed, environment) => {
    const directory = path.dirname(fileURLToPath(import.meta.url))
    const dataDir = Directories.data({ env: environment.io.env, home: os.homedir() })
    const code = await WarmClient.handoff({ argv, io: environment.io, directory, dataDir })
    if (code !== undefined) return code as Awaited<ReturnType<Command.Run>>
    const run = await local(name)
    return run === undefined ? Promise.reject(new Error(`no command ${name}`)) : run(parsed, environment)
  }

// No top-level await: the built executable is CommonJS (build/cli.mjs), which starts faster.
void Cli.run(argv, { load: (name) => (WarmClient.COMMANDS.has(name) ? Promise.resolve(handedOff(name)) : local(name)) }).then((code) => {
  process.exitCode = code
})
