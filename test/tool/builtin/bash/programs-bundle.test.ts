/**
 * JavaScript bundlers and compilers write their output options (BashProgramsBundle). That esbuild
 * really writes `.envrc` and outside, and now asks, is checked against real files in
 * test/tool/builtin/bash-protected-oracle.test.ts (`OUTPUTS`).
 */
import { describe, expect, it } from "vitest"
import { directory, file, normalized, parse } from "../../../lib/bash-gate.js"

const targets = (command: string) => normalized(parse(command).targets)

describe("BashProgramsBundle", () => {
  it("reads esbuild's --outfile, --metafile and --outdir (only with =)", () => {
    expect(targets("esbuild x.js --banner:js='cmd #' --outfile=.envrc")).toEqual([file(".envrc")])
    expect(targets("esbuild x.js --bundle --minify --sourcemap --outdir=.git/hooks --metafile=m.json")).toEqual([directory(".git/hooks"), file("m.json")])
    expect(targets("npx esbuild x.js --outfile=../x.js")).toEqual([file("../x.js")])
  })

  it("reads tsc's output folders in any case, rolldown's and rollup's -o/-d, vite's --outDir", () => {
    expect(targets("tsc --outdir ../out")).toEqual([directory("../out")])
    expect(targets("tsc --outFile .envrc x.ts")).toEqual([file(".envrc")])
    expect(targets("rolldown x.js -o ../y.js")).toEqual([file("../y.js")])
    expect(targets("rollup -d ../dist x.js")).toEqual([directory("../dist")])
    expect(targets("vite build --outDir=../d")).toEqual([directory("../d")])
    for (const command of ["tsc -p .", "tsc --noEmit", "vite build", "esbuild x.js"]) expect([command, targets(command)]).toEqual([command, []])
    expect(parse('esbuild x.js "$OPTS"').opaque).toBe(true)
  })
})
