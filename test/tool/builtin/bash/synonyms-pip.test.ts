/**
 * pip's other names (BashSynonymsPip), against real pip: each spelling below resolves and would
 * install a wheel the test built (`--dry-run`, `--no-index`: nothing installed, no network), so
 * it is `pip install`, and the gate does not allow it under `* allow` with `pip install *` denied.
 * The real-pip part is skipped, with the reason printed, when python3 or its pip is missing; the
 * gate part needs neither.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { BashSynonymsPip } from "../../../../src/tool/builtin/bash/synonyms-pip.js"
import { decide, rule } from "../../../lib/bash-gate.js"

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-pip-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const ENV = { PATH: process.env.PATH ?? "", HOME: root, PIP_CONFIG_FILE: "/dev/null", PIP_DISABLE_PIP_VERSION_CHECK: "1", ...(process.env.PYENV_ROOT === undefined ? {} : { PYENV_ROOT: process.env.PYENV_ROOT }) }
const unavailable = spawnSync("python3", ["-m", "pip", "--version"], { env: ENV }).status === 0 ? undefined : "python3 -m pip is not available"
if (unavailable !== undefined) console.warn(`real-pip synonym oracle skipped: ${unavailable}`)

/** A wheel with metadata only, which `pip install --dry-run` resolves. */
const WHEEL = `
import sys, zipfile
info = "toolgate_oracle-1.0.dist-info/"
with zipfile.ZipFile(sys.argv[1] + "/toolgate_oracle-1.0-py3-none-any.whl", "w") as z:
    z.writestr(info + "METADATA", "Metadata-Version: 2.1\\nName: toolgate-oracle\\nVersion: 1.0\\n")
    z.writestr(info + "WHEEL", "Wheel-Version: 1.0\\nGenerator: t\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    z.writestr(info + "RECORD", "")
`
const NO_INSTALL = [rule("*", "allow"), rule("pip install *", "deny")]
const WOULD = "Would install toolgate-oracle-1.0"

describe.skipIf(unavailable !== undefined)("pip's other names, against real pip", () => {
  it("pip3, pip3.X and python3 -m pip install, and a pip install * deny denies them", () => {
    expect(spawnSync("python3", ["-c", WHEEL, root], { env: ENV }).status).toBe(0)
    const version = spawnSync("python3", ["-c", "import sys; print(f'{sys.version_info[0]}.{sys.version_info[1]}')"], { env: ENV, encoding: "utf8" }).stdout.trim()
    const lines = ["pip3 install", `pip${version} install`, "python3 -m pip install", "python3 -Im pip install", "python3 -mpip install", "python3 -W ignore -m pip --isolated install"]
    let ran = 0
    for (const line of lines) {
      const words = [...line.split(" "), "--dry-run", "--no-index", "--find-links", root, "toolgate-oracle"]
      const found = spawnSync(words[0] as string, words.slice(1), { env: ENV, encoding: "utf8", timeout: 60_000 })
      if (found.error !== undefined) continue
      ran++
      expect([line, `${found.stdout}${found.stderr}`]).toEqual([line, expect.stringContaining(WOULD)])
      const command = words.join(" ")
      expect([command, decide(command, NO_INSTALL).effect]).toEqual([command, "deny"])
    }
    expect(ran).toBeGreaterThanOrEqual(lines.length - 2)
  })
})

describe("pip's other names, judged by the gate", () => {
  it("each spelling is also pip, its options before the command dropped", () => {
    for (const line of ["pip3 install x", "pip3.12 install x", "python -m pip install x", "python3.11 -m pip --isolated install x", "python3 -X dev -Impip install x"]) {
      expect([line, decide(line, NO_INSTALL).effect]).toEqual([line, "deny"])
    }
  })

  it("python running anything else, and pip's other commands, are read as before", () => {
    expect(BashSynonymsPip.synonyms(["python3", "-c", "import pip", "-m", "pip"])).toEqual([])
    expect(BashSynonymsPip.synonyms(["python3", "script.py", "-m", "pip"])).toEqual([])
    expect(BashSynonymsPip.synonyms(["python3", "-m", "pipx", "install", "x"])).toEqual([])
    expect(decide("python3 -m pip list", NO_INSTALL).effect).toBe("allow")
    expect(decide("pip3 list", NO_INSTALL).effect).toBe("allow")
    expect(decide("python3 -m pip install x", [rule("*", "allow"), rule("rm *", "deny")]).effect).toBe("allow")
  })
})
