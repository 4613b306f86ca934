#!/usr/bin/env node
/** The `toolgate` executable: runs the CLI on this process's arguments and exits with its code. */
import { Cli } from "./main.js"

process.exitCode = await Cli.run(process.argv.slice(2))
