#!/usr/bin/env node
/**
 * The `toolgate` executable: runs the CLI on this process's arguments and exits with its code.
 * Help and version need nothing but the specs; a command runs from the bundle when there is one
 * (cli/bundle.ts), else from its modules.
 */
import { Bundle } from "./bundle.js"
import { Cli } from "./main.js"

// No top-level await: the built executable is CommonJS (build/cli.mjs), which starts faster.
void Cli.run(process.argv.slice(2), { load: (name) => (Bundle.load({ command: name })?.load ?? Cli.loadModules)(name) }).then((code) => {
  process.exitCode = code
})
