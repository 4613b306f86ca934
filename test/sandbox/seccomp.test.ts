/**
 * The seccomp program's shape (its effect is tested against the kernel in bwrap.test.ts): a
 * program per supported architecture, every jump landing inside it on an instruction, every path
 * ending in a return; none for an architecture toolgate has no numbers for.
 */
import { describe, expect, it } from "vitest"
import { SandboxSeccomp } from "../../src/sandbox/seccomp.js"

const RET = 0x06
const JMP_CLASS = 0x05

const decode = (bytes: Buffer) =>
  Array.from({ length: bytes.length / 8 }, (_, index) => ({ code: bytes.readUInt16LE(index * 8), jt: bytes.readUInt8(index * 8 + 2), jf: bytes.readUInt8(index * 8 + 3), k: bytes.readUInt32LE(index * 8 + 4) }))

describe("SandboxSeccomp.program", () => {
  it.each(["x64", "arm64"])("%s: every jump lands inside the program and the last instruction returns", (arch) => {
    const program = SandboxSeccomp.program(arch)
    expect(program).toBeDefined()
    const instructions = decode(program as Buffer)
    instructions.forEach((instruction, index) => {
      if ((instruction.code & 0x07) !== JMP_CLASS) return
      expect(index + 1 + instruction.jt).toBeLessThan(instructions.length)
      expect(index + 1 + instruction.jf).toBeLessThan(instructions.length)
    })
    expect(instructions.at(-1)?.code).toBe(RET)
  })

  it("the two architectures differ in their audit number and socket call", () => {
    expect(SandboxSeccomp.program("x64")?.equals(SandboxSeccomp.program("arm64") as Buffer)).toBe(false)
  })

  it("has no program for an architecture it has no numbers for, and says so", () => {
    expect(SandboxSeccomp.program("riscv64")).toBeUndefined()
    expect(SandboxSeccomp.Messages.unsupported("riscv64")).toBe("no seccomp filter is built for riscv64 (only x64 and arm64)")
  })
})
