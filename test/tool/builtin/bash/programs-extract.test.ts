/**
 * Extractors that write into a folder their words name (BashProgramsExtract), like `tar -C`: the
 * folder is a target. That each really writes there, and now asks, is checked against real files
 * in test/tool/builtin/bash-protected-oracle.test.ts (`INTO_FOLDERS`).
 */
import { describe, expect, it } from "vitest"
import { directory, file, named, parse } from "../../../lib/bash-gate.js"

const targets = (command: string) => named(parse(command).targets)

describe("BashProgramsExtract", () => {
  it("reads unzip's -d anywhere, attached or not, and . without it", () => {
    expect(targets("unzip x.zip -d .git/hooks")).toEqual([directory(".git/hooks")])
    expect(targets("unzip -d../sib x.zip")).toEqual([directory("../sib")])
    expect(targets("unzip -qod ../sib x.zip")).toEqual([directory("../sib")])
    expect(targets("unzip x.zip")).toEqual([directory(".")])
    expect(targets("unzip -: x.zip")).toEqual([directory("."), file(undefined)])
  })

  it("reads unzip's listing, testing and piping as writing nothing, and asks for a word that may be an option", () => {
    for (const command of ["unzip -l x.zip", "unzip -t x.zip", "unzip -p x.zip f", "unzip -Z x.zip", "unzip -v x.zip"]) expect([command, targets(command)]).toEqual([command, []])
    expect(parse('unzip "$z" -d sub').opaque).toBe(true)
  })

  it("reads ar's --output and dpkg-deb's extracting actions", () => {
    expect(targets("ar x t.a --output=.git/hooks")).toEqual([directory(".git/hooks")])
    expect(targets("ar x t.a --output ../sib")).toEqual([directory("../sib")])
    expect(targets("ar rc t.a x")).toEqual([])
    expect(targets("dpkg-deb -x x.deb ../sib")).toEqual([directory("../sib")])
    expect(targets("dpkg-deb --extract x.deb .git")).toEqual([directory(".git")])
    expect(targets("dpkg -x x.deb d")).toEqual([directory("d")])
    expect(targets("dpkg-deb -e x.deb")).toEqual([directory("DEBIAN")])
    expect(targets("dpkg -l")).toEqual([])
  })
})
